import LayoutSolver

/// A rectangle that takes part in Auto Layout without being a view: no
/// layer, no events. Use it for spacing, or to group views.
///
/// A guide belongs to a view (``owningView``, set by
/// ``UIView/addLayoutGuide(_:)``); its ``layoutFrame`` is in that view's
/// coordinates.
@preconcurrency @MainActor
open class UILayoutGuide: NSObject, LayoutItem, AnchorProviding {
    /// The view the guide belongs to.
    open internal(set) weak var owningView: UIView?
    /// A name for descriptions and conflict logs.
    open var identifier = ""
    let role: GuideRole
    lazy var layoutVariables = LayoutVariables("guide")

    public override init() {
        role = .custom
        super.init()
    }

    init(role: GuideRole, identifier: String) {
        self.role = role
        self.identifier = identifier
        super.init()
    }

    var layoutParentView: UIView? { owningView }
    var layoutOwnerView: UIView? { owningView }

    /// The guide's rectangle in its owning view's coordinates, as last solved.
    open var layoutFrame: CGRect {
        guard let owningView else { return .zero }
        if role != .custom, owningView.rootLayoutEngine?.isParticipating(self) != true {
            // A system guide nobody constrains: its rectangle follows from the view.
            return owningView.systemGuideFrame(role)
        }
        owningView.updateConstraintBasedLayoutIfNeeded()
        return owningView.rootLayoutEngine?.solvedRect(of: self) ?? .zero
    }

    public var leadingAnchor: NSLayoutXAxisAnchor { xAnchor(.leading) }
    public var trailingAnchor: NSLayoutXAxisAnchor { xAnchor(.trailing) }
    public var leftAnchor: NSLayoutXAxisAnchor { xAnchor(.left) }
    public var rightAnchor: NSLayoutXAxisAnchor { xAnchor(.right) }
    public var centerXAnchor: NSLayoutXAxisAnchor { xAnchor(.centerX) }
    public var topAnchor: NSLayoutYAxisAnchor { yAnchor(.top) }
    public var bottomAnchor: NSLayoutYAxisAnchor { yAnchor(.bottom) }
    public var centerYAnchor: NSLayoutYAxisAnchor { yAnchor(.centerY) }
    public var widthAnchor: NSLayoutDimension { dimension(.width) }
    public var heightAnchor: NSLayoutDimension { dimension(.height) }

    nonisolated open override var description: String {
        MainActor.assumeIsolated { "<UILayoutGuide: \(objectAddress(self)) - \"\(identifier)\", layoutFrame = \(layoutFrame)>" }
    }
}
