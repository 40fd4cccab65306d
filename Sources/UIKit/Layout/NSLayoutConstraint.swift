/// A relationship between two layout attributes that the layout solves for:
/// `firstItem.firstAttribute  relation  multiplier × secondItem.secondAttribute + constant`.
///
/// A constraint acts only while it is active: ``isActive``, or
/// ``activate(_:)``, installs it in the nearest common ancestor of its items
/// (the view's ``UIView/constraints``), and the layout engine of that view
/// tree adds it to its solver. Changing ``constant`` afterwards re-solves
/// incrementally. When required constraints contradict each other, one of
/// them is broken and the conflict is logged as UIKit logs it.
@preconcurrency @MainActor
open class NSLayoutConstraint: NSObject {
    /// The parts of a view's or guide's layout a constraint can relate.
    public enum Attribute: Int, Sendable {
        case left = 1
        case right
        case top
        case bottom
        case leading
        case trailing
        case width
        case height
        case centerX
        case centerY
        case lastBaseline
        case firstBaseline
        case leftMargin
        case rightMargin
        case topMargin
        case bottomMargin
        case leadingMargin
        case trailingMargin
        case centerXWithinMargins
        case centerYWithinMargins
        case notAnAttribute = 0

        public static var baseline: Attribute { .lastBaseline }
    }

    /// How the two sides compare.
    public enum Relation: Int, Sendable {
        case lessThanOrEqual = -1
        case equal = 0
        case greaterThanOrEqual = 1
    }

    /// The direction a constraint, a hugging priority or a stack view works in.
    public enum Axis: Int, Sendable {
        case horizontal = 0
        case vertical = 1
    }

    /// The first item: a `UIView` or a `UILayoutGuide`.
    public private(set) weak var firstItem: AnyObject?
    public let firstAttribute: Attribute
    public let relation: Relation
    /// The second item, or nil for a constraint against a constant.
    public private(set) weak var secondItem: AnyObject?
    public let secondAttribute: Attribute
    public let multiplier: CGFloat

    /// The constant added to the second side. Changing it while the
    /// constraint is active re-solves incrementally.
    open var constant: CGFloat {
        didSet {
            guard constant != oldValue else { return }
            engine?.constantDidChange(of: self)
        }
    }

    /// How much the constraint matters (1…1000). As in UIKit, an active
    /// constraint cannot change between required and optional; such a
    /// change is refused and reported.
    open var priority: UILayoutPriority = .required {
        didSet {
            guard priority != oldValue else { return }
            if !(1...1000).contains(priority.rawValue) || !priority.rawValue.isFinite {
                reportLayoutProblem("priority \(priority.rawValue) of \(self) is outside 1…1000; it stays \(oldValue.rawValue)")
                priority = oldValue
                return
            }
            if isActive && (priority == .required) != (oldValue == .required) {
                reportLayoutProblem("mutating the priority of \(self) between required and not required while it is active is not supported (UIKit raises); it stays \(oldValue.rawValue)")
                priority = oldValue
                return
            }
            engine?.priorityDidChange(of: self)
        }
    }

    /// A name that descriptions and conflict logs show.
    open var identifier: String?

    /// Whether the constraint is kept when archived; nothing is archived here.
    open var shouldBeArchived = false

    /// Why the constraint can never be active (an attribute that does not
    /// fit the others, an item that is not a view or guide), or nil.
    let invalidity: String?

    /// The view whose ``UIView/constraints`` hold this constraint while it is active.
    weak var owner: UIView?
    /// The engine that has this constraint, while it is active in a view tree.
    weak var engine: LayoutEngine?

    /// Creates a constraint `view1.attr1 relation multiplier × view2.attr2 + constant`.
    public init(item view1: Any, attribute attr1: Attribute, relatedBy relation: Relation,
                toItem view2: Any?, attribute attr2: Attribute, multiplier: CGFloat, constant c: CGFloat) {
        firstItem = view1 as AnyObject
        firstAttribute = attr1
        self.relation = relation
        secondItem = view2.map { $0 as AnyObject }
        secondAttribute = attr2
        self.multiplier = multiplier
        constant = c
        invalidity = Self.invalidity(view1, attr1, view2, attr2, multiplier, c)
        super.init()
        if let invalidity { reportLayoutProblem("invalid constraint \(self): \(invalidity)") }
    }

    /// Whether the constraint is installed and acting on the layout.
    open var isActive: Bool {
        get { owner != nil }
        set {
            if newValue { activate() } else { owner?.removeConstraint(self) }
        }
    }

    /// Activates each constraint: the same as setting ``isActive`` on each,
    /// in one step for the engine.
    public class func activate(_ constraints: [NSLayoutConstraint]) {
        for constraint in constraints { constraint.isActive = true }
    }

    public class func deactivate(_ constraints: [NSLayoutConstraint]) {
        for constraint in constraints { constraint.isActive = false }
    }

    private func activate() {
        guard owner == nil else { return }
        if let invalidity {
            return reportLayoutProblem("cannot activate \(self): \(invalidity)")
        }
        guard let first = firstItem as? LayoutItem else {
            return reportLayoutProblem("cannot activate \(self): its first item is gone")
        }
        var ancestor = first.layoutOwnerView
        if let secondItem {
            guard let second = secondItem as? LayoutItem, let secondView = second.layoutOwnerView,
                  let firstView = ancestor, let common = firstView.nearestCommonAncestor(with: secondView) else {
                return reportLayoutProblem(
                    "Unable to activate constraint with anchors \(describeAnchor(firstItem, firstAttribute)) and \(describeAnchor(secondItem, secondAttribute)) because they have no common ancestor. Does the constraint or its anchors reference items in different view hierarchies? That's illegal.")
            }
            ancestor = common
        }
        guard let ancestor else {
            return reportLayoutProblem("cannot activate \(self): its layout guide is not in a view")
        }
        ancestor.addConstraint(self)
    }

    /// The reason UIKit would refuse this constraint, or nil if it is valid.
    private static func invalidity(_ item1: Any, _ attr1: Attribute, _ item2: Any?, _ attr2: Attribute,
                                   _ multiplier: CGFloat, _ constant: CGFloat) -> String? {
        guard item1 is LayoutItem else { return "the first item must be a view or a layout guide" }
        guard attr1 != .notAnAttribute else { return "the first attribute cannot be notAnAttribute" }
        guard multiplier.isFinite, constant.isFinite else { return "the multiplier and constant must be finite numbers" }
        if let item2 {
            guard item2 is LayoutItem else { return "the second item must be a view or a layout guide" }
            guard attr2 != .notAnAttribute else { return "a second item needs a second attribute" }
            let kind1 = AttributeKind(attr1)
            let kind2 = AttributeKind(attr2)
            if kind1.isDimension != kind2.isDimension && !kind1.isDimension {
                return "a location attribute (\(attr1)) cannot be related to a size (\(attr2))"
            }
            if !kind1.isDimension && kind1.axis != kind2.axis {
                return "\(attr1) and \(attr2) are on different axes"
            }
            if !kind1.isDimension && !kind1.isCenter && !kind2.isCenter && kind1.isDirectional != kind2.isDirectional {
                return "a leading/trailing attribute cannot be related to a left/right one"
            }
            if !kind1.isDimension && multiplier == 0 {
                return "a multiplier of 0 would make the location \(attr1) equal a constant"
            }
        } else {
            guard attr2 == .notAnAttribute else { return "a second attribute needs a second item" }
            if !AttributeKind(attr1).isDimension {
                return "a location attribute (\(attr1)) cannot equal a constant"
            }
        }
        return nil
    }

    /// `<NSLayoutConstraint:0x… 'identifier' UIView:0x….width == 100   (active)>`,
    /// as UIKit prints constraints. Read it on the main thread.
    nonisolated open override var description: String {
        MainActor.assumeIsolated { layoutDescription }
    }

    var layoutDescription: String {
        var text = "<NSLayoutConstraint:\(objectAddress(self))"
        if let identifier { text += " '\(identifier)'" }
        text += " \(describeAnchor(firstItem, firstAttribute)) \(relation.symbol) "
        if let secondItem {
            text += describeAnchor(secondItem, secondAttribute)
            if multiplier != 1 { text += "*\(formatLayoutNumber(multiplier))" }
            if constant != 0 { text += " \(constant < 0 ? "-" : "+") \(formatLayoutNumber(abs(constant)))" }
        } else {
            text += formatLayoutNumber(constant)
        }
        if priority != .required { text += " @\(formatLayoutNumber(CGFloat(priority.rawValue)))" }
        text += isActive ? "   (active)>" : "   (inactive)>"
        return text
    }
}

extension NSLayoutConstraint.Relation {
    var symbol: String {
        switch self {
        case .lessThanOrEqual: "<="
        case .equal: "=="
        case .greaterThanOrEqual: ">="
        }
    }
}

/// What kind of quantity an attribute is: its axis, whether it is a size,
/// and whether it follows the layout direction.
struct AttributeKind {
    var axis: NSLayoutConstraint.Axis
    var isDimension: Bool
    /// Leading or trailing: these do not mix with left and right.
    var isDirectional: Bool

    /// A centre relates to edges of either kind.
    var isCenter: Bool { !isDimension && !isDirectional && isCenterAttribute }
    private var isCenterAttribute = false

    init(_ attribute: NSLayoutConstraint.Attribute) {
        switch attribute {
        case .centerX, .centerXWithinMargins:
            self.init(axis: .horizontal, isDimension: false, isDirectional: false)
            isCenterAttribute = true
        case .centerY, .centerYWithinMargins:
            self.init(axis: .vertical, isDimension: false, isDirectional: false)
            isCenterAttribute = true
        case .left, .right, .leftMargin, .rightMargin, .notAnAttribute:
            self.init(axis: .horizontal, isDimension: false, isDirectional: false)
        case .leading, .trailing, .leadingMargin, .trailingMargin:
            self.init(axis: .horizontal, isDimension: false, isDirectional: true)
        case .width:
            self.init(axis: .horizontal, isDimension: true, isDirectional: false)
        case .top, .bottom, .lastBaseline, .firstBaseline, .topMargin, .bottomMargin:
            self.init(axis: .vertical, isDimension: false, isDirectional: false)
        case .height:
            self.init(axis: .vertical, isDimension: true, isDirectional: false)
        }
    }

    private init(axis: NSLayoutConstraint.Axis, isDimension: Bool, isDirectional: Bool) {
        self.axis = axis
        self.isDimension = isDimension
        self.isDirectional = isDirectional
    }
}

/// `UIView:0x…` or `UILayoutGuide:0x…'identifier'`, then `.attribute`, as
/// UIKit's constraint descriptions show items.
@MainActor
func describeAnchor(_ item: AnyObject?, _ attribute: NSLayoutConstraint.Attribute) -> String {
    guard let item else { return "nil.\(attribute)" }
    return "\(describeLayoutItem(item)).\(attribute)"
}

@MainActor
func describeLayoutItem(_ item: AnyObject) -> String {
    if let guide = item as? UILayoutGuide {
        return "UILayoutGuide:\(objectAddress(guide))'\(guide.identifier)'"
    }
    return "\(String(describing: type(of: item))):\(objectAddress(item))"
}

func objectAddress(_ object: AnyObject) -> String {
    "0x" + String(UInt(bitPattern: ObjectIdentifier(object).hashValue), radix: 16)
}

func formatLayoutNumber(_ value: CGFloat) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(Double(value))
}

@MainActor
func reportLayoutProblem(_ message: String) {
    UIApplication.shared.diagnostics.report(Diagnostic(.layoutConstraints, message))
}

extension NSLayoutConstraint {
    /// Whether the constraint speaks of leading or trailing edges, and so
    /// flips in a right-to-left view.
    var isDirectional: Bool {
        AttributeKind(firstAttribute).isDirectional || (secondItem != nil && AttributeKind(secondAttribute).isDirectional)
    }
}
