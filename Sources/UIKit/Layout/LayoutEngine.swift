import LayoutSolver

/// The Auto Layout engine of one view tree, kept by the tree's root view.
///
/// It turns the tree's active constraints into linear constraints on the
/// items' variables (each item's origin and size, in its parent's
/// coordinates) and keeps them in an incremental Cassowary ``Solver``. Each
/// change is passed on at once: an activation adds a constraint, a new
/// `constant` shifts one, a view that lays out with frames has its frame
/// held by four constraints whose constants follow the frame. The solution is
/// read and applied to the frames of views that do not translate their
/// autoresizing masks at the start of the layout pass
/// (``updateLayoutIfNeeded()``, from `layoutSubviews`'s caller and
/// `layoutIfNeeded()`), after the update-constraints pass.
///
/// A tree gets an engine the first time a constraint is installed in it or a
/// view in it asks for an update-constraints pass; when a subtree moves to
/// another tree, its constraints move to that tree's engine, and those that
/// tied it to views outside it are deactivated, as UIKit's
/// `removeFromSuperview()` does.
@MainActor
final class LayoutEngine {
    let solver = Solver()
    private(set) weak var root: UIView?

    /// An item whose variables are in the solver, and what the engine added for it.
    @MainActor
    private final class Participant {
        let item: LayoutItem
        /// How many constraints use the item's variables.
        var uses = 0
        /// The constraints the engine made for the item: its frame (views that
        /// translate their autoresizing masks), its intrinsic size with hugging
        /// and compression resistance, or a system guide's ties to its view.
        var ownConstraints: [Constraint] = []
        /// The constants those constraints were made with, to change them
        /// incrementally when the frame, the intrinsic size or the margins change.
        var ownKinds: [OwnConstraintKind] = []
        /// Items this one's own constraints use (a guide's view).
        var dependencies: [LayoutItem] = []
        var translates = false
        var intrinsicSize = CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric)
        /// A scroll view's frame guide: the content offset its origin was tied to.
        var guideOrigin = CGPoint.zero
        var hugging = (horizontal: UILayoutPriority.defaultLow, vertical: UILayoutPriority.defaultLow)
        var compressionResistance = (horizontal: UILayoutPriority.defaultHigh, vertical: UILayoutPriority.defaultHigh)
        /// The item's variables `exerciseAmbiguityInLayout()` made edit
        /// variables of, to pull them (``exerciseAmbiguity(of:)``).
        var ambiguityPulls: [Variable] = []

        init(item: LayoutItem) {
            self.item = item
        }
    }

    enum OwnConstraintKind {
        case frame
        case intrinsicSize
        case guide
    }

    /// What the engine keeps of an active constraint.
    private struct Installed {
        let constraint: NSLayoutConstraint
        /// Nil while the constraint is broken (it conflicted with required ones).
        var solverConstraint: Constraint?
        var items: [LayoutItem]
        /// The solver expression's constant without the constraint's `constant`.
        var baseConstant: Double
    }

    private var participants: [ObjectIdentifier: Participant] = [:]
    /// Participants that are multi-line labels wrapping at the width solved
    /// for them (``UILabel/wrapsAtSolvedWidth``).
    private var wrappingLabels: [ObjectIdentifier: Participant] = [:]
    private var installed: [ObjectIdentifier: Installed] = [:]
    /// Participants whose frame, intrinsic size or guide insets may have changed.
    private var stale: [ObjectIdentifier: Participant] = [:]
    private(set) var needsUpdate = false
    var hasPendingConstraintUpdates = false
    private var isUpdating = false

    init(root: UIView) {
        self.root = root
        installConstraints(inSubtreeOf: root)
        markNeedsUpdate()
    }

    // MARK: - The engine of a tree

    /// The engine of `view`'s tree, made (with every constraint of the tree)
    /// if the tree has none.
    static func engine(for view: UIView) -> LayoutEngine {
        let root = view.layoutRoot
        let state = root.ensureLayoutState()
        if let engine = state.engine { return engine }
        let engine = LayoutEngine(root: root)
        state.engine = engine
        return engine
    }

    /// `view` and its subtree left the tree whose root is `oldRoot`.
    /// Constraints inside the subtree leave the old engine and go to an
    /// engine of the subtree's own; those that tied it to the rest of the old
    /// tree are deactivated.
    static func subtreeDidLeave(_ view: UIView, oldRoot: UIView) {
        guard let engine = oldRoot.layoutState?.engine else { return }
        var inside = Set<ObjectIdentifier>()
        var hasConstraints = false
        var pending: [UIView] = [view]
        while let next = pending.popLast() {
            inside.insert(ObjectIdentifier(next))
            if let state = next.layoutState {
                for guide in state.layoutGuides { inside.insert(ObjectIdentifier(guide)) }
                for guide in [state.marginsGuide, state.safeAreaGuide, state.readableGuide,
                              state.scrollContentGuide, state.scrollFrameGuide] {
                    if let guide { inside.insert(ObjectIdentifier(guide)) }
                }
                if !state.constraints.isEmpty || state.needsUpdateConstraints { hasConstraints = true }
            }
            pending.append(contentsOf: next.subviews)
        }
        for entry in Array(engine.installed.values) {
            var touchesSubtree = false
            for item in entry.items where inside.contains(ObjectIdentifier(item)) {
                touchesSubtree = true
                break
            }
            guard touchesSubtree else { continue }
            if let owner = entry.constraint.owner, inside.contains(ObjectIdentifier(owner)) {
                engine.uninstall(entry.constraint)
            } else {
                entry.constraint.owner?.removeConstraint(entry.constraint)
            }
        }
        engine.markNeedsUpdate()
        if hasConstraints {
            let state = view.ensureLayoutState()
            let subtreeEngine = LayoutEngine(root: view)
            subtreeEngine.hasPendingConstraintUpdates = engine.hasPendingConstraintUpdates
            state.engine = subtreeEngine
        }
    }

    /// `view`, until now the root of its own tree, joined another tree: its
    /// constraints go to that tree's engine.
    static func subtreeDidJoin(_ view: UIView) {
        guard let moved = view.layoutState?.engine else { return }
        view.layoutState?.engine = nil
        let root = view.layoutRoot
        if let engine = root.layoutState?.engine {
            engine.installConstraints(inSubtreeOf: view)
            engine.hasPendingConstraintUpdates = engine.hasPendingConstraintUpdates || moved.hasPendingConstraintUpdates
            engine.markNeedsUpdate()
        } else {
            let engine = LayoutEngine(root: root)
            engine.hasPendingConstraintUpdates = moved.hasPendingConstraintUpdates
            root.ensureLayoutState().engine = engine
        }
    }

    private func installConstraints(inSubtreeOf view: UIView) {
        var pending: [UIView] = [view]
        while let next = pending.popLast() {
            if let state = next.layoutState {
                for constraint in state.constraints { install(constraint) }
            }
            pending.append(contentsOf: next.subviews)
        }
    }

    func markNeedsUpdate() {
        needsUpdate = true
        root?.setNeedsLayout()
    }

    // MARK: - Constraints

    /// Adds an active constraint to the solver. One that contradicts the
    /// required constraints is logged, as UIKit logs it, and kept aside
    /// (broken) while it stays active.
    func install(_ constraint: NSLayoutConstraint) {
        let key = ObjectIdentifier(constraint)
        guard installed[key] == nil, let owner = constraint.owner else { return }
        guard let (expression, items) = linearExpression(of: constraint, in: owner) else {
            reportLayoutProblem("cannot install \(constraint): its items are not inside \(owner)")
            return
        }
        constraint.engine = self
        for item in items { acquire(item) }
        var entry = Installed(constraint: constraint, solverConstraint: nil, items: items,
                              baseConstant: expression.constant + Double(constraint.constant))
        let solverConstraint = LayoutSolver.Constraint(expression, constraint.relation.solverRelation,
                                                       strength: strength(constraint.priority))
        do {
            try solver.add(solverConstraint)
            entry.solverConstraint = solverConstraint
        } catch {
            reportConflict(breaking: constraint, items: items)
        }
        installed[key] = entry
        markNeedsUpdate()
    }

    func uninstall(_ constraint: NSLayoutConstraint) {
        guard let entry = installed.removeValue(forKey: ObjectIdentifier(constraint)) else { return }
        if let solverConstraint = entry.solverConstraint { try? solver.remove(solverConstraint) }
        for item in entry.items { release(item) }
        if constraint.engine === self { constraint.engine = nil }
        markNeedsUpdate()
        retryBrokenConstraints()
    }

    /// Constraints broken by a conflict get another chance once a
    /// constraint leaves (as the one they conflicted with may have).
    private func retryBrokenConstraints() {
        for (key, entry) in installed where entry.solverConstraint == nil {
            guard let (expression, _) = linearExpression(of: entry.constraint, in: entry.constraint.owner ?? root!) else { continue }
            let candidate = LayoutSolver.Constraint(expression, entry.constraint.relation.solverRelation,
                                                    strength: strength(entry.constraint.priority))
            if (try? solver.add(candidate)) != nil { installed[key]?.solverConstraint = candidate }
        }
    }

    func constantDidChange(of constraint: NSLayoutConstraint) {
        guard let entry = installed[ObjectIdentifier(constraint)] else { return }
        markNeedsUpdate()
        guard let solverConstraint = entry.solverConstraint else {
            retryBrokenConstraints()
            return
        }
        do {
            try solver.setConstant(of: solverConstraint, to: entry.baseConstant - Double(constraint.constant))
        } catch {
            try? solver.remove(solverConstraint)
            installed[ObjectIdentifier(constraint)]?.solverConstraint = nil
            reportConflict(breaking: constraint, items: entry.items)
        }
    }

    /// Makes again the constraints `view` holds that speak of leading or
    /// trailing edges, after the view's direction changed.
    func reinstallDirectionalConstraints(ownedBy view: UIView) {
        for entry in Array(installed.values) where entry.constraint.owner === view && entry.constraint.isDirectional {
            uninstall(entry.constraint)
            install(entry.constraint)
        }
    }

    func priorityDidChange(of constraint: NSLayoutConstraint) {
        guard installed[ObjectIdentifier(constraint)] != nil else { return }
        uninstall(constraint)
        install(constraint)
    }

    var activeConstraints: [NSLayoutConstraint] {
        var result: [NSLayoutConstraint] = []
        for entry in installed.values { result.append(entry.constraint) }
        return result
    }

    private func strength(_ priority: UILayoutPriority) -> Strength {
        priority.rawValue >= 1000 ? .required : Strength(Double(max(priority.rawValue, 1)))
    }

    // MARK: - Expressions

    /// `first - multiplier·second - constant`, in `ancestor`'s coordinates,
    /// and the items whose variables it uses.
    ///
    /// A constraint that speaks of leading or trailing edges, held by a
    /// right-to-left view, is read in a mirrored world: leading is the right
    /// edge, trailing the left one, and every horizontal position is
    /// negated, so that "8 after" means 8 further left and an inequality
    /// turns round with the axis. (UIKit flips such constraints by the
    /// direction of the view that holds them: a right-to-left stack view
    /// reverses its row.)
    private func linearExpression(of constraint: NSLayoutConstraint, in ancestor: UIView) -> (LayoutSolver.Expression, [LayoutItem])? {
        let mirrored = constraint.isDirectional && ancestor.isRightToLeft
        guard let first = constraint.firstItem as? LayoutItem,
              let (firstExpression, firstItems) = expression(of: first, constraint.firstAttribute, in: ancestor, mirrored: mirrored)
        else { return nil }
        var expression = firstExpression
        var items = firstItems
        if let second = constraint.secondItem as? LayoutItem {
            guard let (secondExpression, secondItems) = self.expression(of: second, constraint.secondAttribute, in: ancestor,
                                                                        mirrored: mirrored) else { return nil }
            expression = expression - Double(constraint.multiplier) * secondExpression
            for item in secondItems where !items.contains(where: { $0 === item }) { items.append(item) }
        }
        expression.constant -= Double(constraint.constant)
        return (expression, items)
    }

    /// The attribute of `item` as a linear expression in `ancestor`'s
    /// coordinates: the item's origin plus those of the views between it and
    /// the ancestor, plus a part of its size.
    func expression(of item: LayoutItem, _ attribute: NSLayoutConstraint.Attribute, in ancestor: UIView,
                    mirrored: Bool = false) -> (LayoutSolver.Expression, [LayoutItem])? {
        var item = item
        var attribute = attribute
        if let (guide, plain) = marginEquivalent(of: item, attribute) {
            item = guide
            attribute = plain
        }
        if mirrored {
            if attribute == .leading { attribute = .right } else if attribute == .trailing { attribute = .left }
        }
        let variables = item.layoutVariables
        var items: [LayoutItem] = [item]
        switch attribute {
        case .width: return (LayoutSolver.Expression(variables.width), items)
        case .height: return (LayoutSolver.Expression(variables.height), items)
        default: break
        }
        let horizontal = AttributeKind(attribute).axis == .horizontal
        var expression = LayoutSolver.Expression()
        // A view's variables are its alignment rectangle, while its subviews
        // and guides are placed from its frame's origin: each view on the
        // way adds its alignment inset, and the ancestor's own edges lie
        // that far inside its bounds.
        if item !== ancestor {
            var current = item
            while true {
                expression.terms.append(Term(horizontal ? current.layoutVariables.minX : current.layoutVariables.minY))
                guard let parent = current.layoutParentView else { return nil }
                if parent === ancestor {
                    if !items.contains(where: { $0 === parent }) { items.append(parent) }
                    break
                }
                let insets = parent.alignmentInsetsInFrame
                expression.constant -= Double(horizontal ? insets.left : insets.top)
                items.append(parent)
                current = parent
            }
        } else if let view = item as? UIView {
            let insets = view.alignmentInsetsInFrame
            expression.constant += Double(horizontal ? insets.left : insets.top)
        }
        let size = horizontal ? variables.width : variables.height
        switch attribute {
        case .left, .leading, .top:
            break
        case .right, .trailing, .bottom:
            expression.terms.append(Term(size))
        case .centerX, .centerY:
            expression.terms.append(Term(size, 0.5))
        case .firstBaseline, .lastBaseline:
            let (fraction, offset) = baseline(of: item, first: attribute == .firstBaseline)
            expression.terms.append(Term(size, fraction))
            expression.constant += offset
        default:
            return nil
        }
        if mirrored && horizontal {
            for index in expression.terms.indices { expression.terms[index].coefficient = -expression.terms[index].coefficient }
            expression.constant = -expression.constant
        }
        return (expression, items)
    }

    /// The margin attributes of a view are the edges of its margins guide.
    private func marginEquivalent(of item: LayoutItem, _ attribute: NSLayoutConstraint.Attribute) -> (UILayoutGuide, NSLayoutConstraint.Attribute)? {
        let plain: NSLayoutConstraint.Attribute
        switch attribute {
        case .leftMargin: plain = .left
        case .rightMargin: plain = .right
        case .topMargin: plain = .top
        case .bottomMargin: plain = .bottom
        case .leadingMargin: plain = .leading
        case .trailingMargin: plain = .trailing
        case .centerXWithinMargins: plain = .centerX
        case .centerYWithinMargins: plain = .centerY
        default: return nil
        }
        if let view = item as? UIView { return (view.layoutMarginsGuide, plain) }
        if let guide = item as? UILayoutGuide { return (guide, plain) }
        return nil
    }

    /// A baseline as `fraction × height + offset` from the top. A label's
    /// first and last baselines are those of its text, centred in its bounds
    /// as it draws it; any other view's are its bottom edge (UIKit's default
    /// for views without text). Computed when the constraint is installed,
    /// and again when the label's text or font changes
    /// (``reinstallBaselineConstraints(of:)``).
    private func baseline(of item: LayoutItem, first: Bool) -> (Double, Double) {
        guard let label = item as? UILabel, let font = label.font else { return (1, 0) }
        let textHeight = Double(label.intrinsicContentSize.height)
        if first { return (0.5, -textHeight / 2 + Double(font.ascender)) }
        return (0.5, textHeight / 2 + Double(font.descender))
    }

    // MARK: - Participants

    func isParticipating(_ item: LayoutItem) -> Bool {
        participants[ObjectIdentifier(item)] != nil
    }

    private func acquire(_ item: LayoutItem) {
        let key = ObjectIdentifier(item)
        if let participant = participants[key] {
            participant.uses += 1
            return
        }
        let participant = Participant(item: item)
        participant.uses = 1
        participants[key] = participant
        addOwnConstraints(of: participant)
    }

    private func release(_ item: LayoutItem) {
        let key = ObjectIdentifier(item)
        guard let participant = participants[key] else { return }
        participant.uses -= 1
        guard participant.uses <= 0 else { return }
        removeOwnConstraints(of: participant)
        participants[key] = nil
        stale[key] = nil
        wrappingLabels[key] = nil
    }

    private func addOwnConstraints(of participant: Participant) {
        if let view = participant.item as? UIView {
            participant.translates = view.translatesAutoresizingMaskIntoConstraints
            if participant.translates {
                addFrameConstraints(of: view, participant)
            } else {
                addIntrinsicSizeConstraints(of: view, participant)
            }
        } else if let guide = participant.item as? UILayoutGuide, guide.role != .custom, let view = guide.owningView {
            participant.dependencies = [view]
            acquire(view)
            addGuideConstraints(of: guide, in: view, participant)
        }
    }

    private func removeOwnConstraints(of participant: Participant) {
        wrappingLabels[ObjectIdentifier(participant.item)] = nil
        removeAmbiguityPulls(of: participant)
        for constraint in participant.ownConstraints { try? solver.remove(constraint) }
        participant.ownConstraints = []
        participant.ownKinds = []
        let dependencies = participant.dependencies
        participant.dependencies = []
        for dependency in dependencies { release(dependency) }
    }

    private func addOwn(_ constraint: Constraint, _ kind: OwnConstraintKind, _ participant: Participant) {
        do {
            try solver.add(constraint)
            participant.ownConstraints.append(constraint)
            participant.ownKinds.append(kind)
        } catch {
            reportLayoutProblem("\(describeLayoutItem(participant.item)): \(constraint) contradicts required constraints and was left out")
        }
    }

    /// A view laid out by its frame: four required equalities hold its
    /// untransformed frame's alignment rectangle (UIKit's autoresizing-mask
    /// constraints).
    private func addFrameConstraints(of view: UIView, _ participant: Participant) {
        let variables = view.layoutVariables
        let frame = view.alignmentRect(forFrame: view.untransformedFrame)
        for (variable, value) in [(variables.minX, frame.minX), (variables.minY, frame.minY),
                                  (variables.width, frame.width), (variables.height, frame.height)] {
            addOwn(Constraint(LayoutSolver.Expression(variable) - Double(value), .equal), .frame, participant)
        }
    }

    /// Content hugging (`size ≤ intrinsic`) and compression resistance
    /// (`size ≥ intrinsic`) in each dimension the view has an intrinsic size in.
    private func addIntrinsicSizeConstraints(of view: UIView, _ participant: Participant) {
        noteWrapping(of: view, participant)
        let size = view.intrinsicContentSize
        participant.intrinsicSize = size
        participant.hugging = view.layoutState?.contentHugging ?? participant.hugging
        participant.compressionResistance = view.layoutState?.compressionResistance ?? participant.compressionResistance
        let variables = view.layoutVariables
        for (variable, value, hugging, resistance) in [
            (variables.width, size.width, participant.hugging.horizontal, participant.compressionResistance.horizontal),
            (variables.height, size.height, participant.hugging.vertical, participant.compressionResistance.vertical),
        ] where value >= 0 && value.isFinite {
            let expression = LayoutSolver.Expression(variable) - Double(value)
            addOwn(Constraint(expression, .lessThanOrEqual, strength: strength(hugging)), .intrinsicSize, participant)
            addOwn(Constraint(expression, .greaterThanOrEqual, strength: strength(resistance)), .intrinsicSize, participant)
        }
    }

    /// A system guide's rectangle, tied to its view's size by insets.
    private func addGuideConstraints(of guide: UILayoutGuide, in view: UIView, _ participant: Participant) {
        let guideVariables = guide.layoutVariables
        let viewVariables = view.layoutVariables
        // The view's size variables are its alignment rectangle's; its bounds
        // are that much larger when it has alignment insets.
        let ornament = view.alignmentInsetsInFrame
        let boundsWidth = viewVariables.width + Double(ornament.left + ornament.right)
        let boundsHeight = viewVariables.height + Double(ornament.top + ornament.bottom)
        switch guide.role {
        case .scrollContent:
            // At the content's origin; its size is what the app's constraints make it.
            addOwn(Constraint(LayoutSolver.Expression(guideVariables.minX), .equal), .guide, participant)
            addOwn(Constraint(LayoutSolver.Expression(guideVariables.minY), .equal), .guide, participant)
            return
        case .scrollFrame:
            // The scroll view's bounds: at the content offset, as large as the view.
            let origin = view.bounds.origin
            participant.guideOrigin = origin
            addOwn(Constraint(LayoutSolver.Expression(guideVariables.minX) - Double(origin.x), .equal), .guide, participant)
            addOwn(Constraint(LayoutSolver.Expression(guideVariables.minY) - Double(origin.y), .equal), .guide, participant)
            addOwn(Constraint(LayoutSolver.Expression(guideVariables.width), .equal, boundsWidth), .guide, participant)
            addOwn(Constraint(LayoutSolver.Expression(guideVariables.height), .equal, boundsHeight), .guide, participant)
            return
        case .custom, .margins, .safeArea, .readableContent:
            break
        }
        let insets = view.systemGuideInsets(guide.role)
        let width = boundsWidth - Double(insets.left + insets.right)
        let height = boundsHeight - Double(insets.top + insets.bottom)
        addOwn(Constraint(LayoutSolver.Expression(guideVariables.minY) - Double(insets.top), .equal), .guide, participant)
        addOwn(Constraint(LayoutSolver.Expression(guideVariables.height), .equal, height), .guide, participant)
        if guide.role == .readableContent {
            // Centred in the margins, as wide as they are up to the readable width.
            let center = guideVariables.minX + 0.5 * guideVariables.width
            addOwn(Constraint(center, .equal, Double(insets.left) + 0.5 * width), .guide, participant)
            addOwn(Constraint(LayoutSolver.Expression(guideVariables.width), .lessThanOrEqual, width), .guide, participant)
            addOwn(Constraint(LayoutSolver.Expression(guideVariables.width), .lessThanOrEqual,
                              LayoutSolver.Expression(constant: Double(LayoutMetrics.readableContentWidth))), .guide, participant)
            addOwn(Constraint(LayoutSolver.Expression(guideVariables.width), .equal, width, strength: Strength(999)), .guide, participant)
        } else {
            addOwn(Constraint(LayoutSolver.Expression(guideVariables.minX) - Double(insets.left), .equal), .guide, participant)
            addOwn(Constraint(LayoutSolver.Expression(guideVariables.width), .equal, width), .guide, participant)
        }
        participant.intrinsicSize = CGSize(width: insets.left + insets.right, height: insets.top + insets.bottom)
    }

    // MARK: - Changes from views

    /// The frame of a view that translates its autoresizing mask changed.
    func geometryDidChange(of view: UIView) {
        // A scroll view's frame guide follows its content offset.
        if let guide = view.layoutState?.scrollFrameGuide, participants[ObjectIdentifier(guide)] != nil { markNeedsUpdate() }
        guard let participant = participants[ObjectIdentifier(view)], participant.translates else { return }
        stale[ObjectIdentifier(view)] = participant
        markNeedsUpdate()
    }

    /// The view's intrinsic size, its hugging or compression resistance, or
    /// whether it translates its autoresizing mask changed.
    func layoutInputsDidChange(of view: UIView) {
        guard let participant = participants[ObjectIdentifier(view)] else { return }
        stale[ObjectIdentifier(view)] = participant
        markNeedsUpdate()
    }

    /// Brings the engine's own constraints up to date with the views:
    /// constants change incrementally when only the numbers changed.
    private func refreshStaleParticipants() {
        // System guides follow margins and safe areas, which have no change
        // notification of their own here: they are checked on every update.
        for participant in participants.values where participant.item is UILayoutGuide {
            stale[ObjectIdentifier(participant.item)] = participant
        }
        let refreshing = stale
        stale = [:]
        for participant in refreshing.values {
            if let view = participant.item as? UIView {
                refresh(view, participant)
            } else if let guide = participant.item as? UILayoutGuide, let view = guide.owningView, guide.role != .custom {
                let insets = view.systemGuideInsets(guide.role)
                switch guide.role {
                case .scrollContent:
                    break
                case .scrollFrame:
                    if participant.guideOrigin != view.bounds.origin { rebuildOwnConstraints(of: participant) }
                default:
                    if participant.intrinsicSize != CGSize(width: insets.left + insets.right, height: insets.top + insets.bottom)
                        || guide.role == .safeArea || guide.role == .margins {
                        rebuildOwnConstraints(of: participant)
                    }
                }
            }
        }
    }

    private func refresh(_ view: UIView, _ participant: Participant) {
        guard participant.translates == view.translatesAutoresizingMaskIntoConstraints else {
            return rebuildOwnConstraints(of: participant)
        }
        if participant.translates {
            let frame = view.alignmentRect(forFrame: view.untransformedFrame)
            let values = [frame.minX, frame.minY, frame.width, frame.height]
            for index in participant.ownConstraints.indices where participant.ownKinds[index] == .frame && index < 4 {
                try? solver.setConstant(of: participant.ownConstraints[index], to: -Double(values[index]))
            }
            return
        }
        noteWrapping(of: view, participant)
        if view is UILabel { reinstallBaselineConstraints(of: view) }
        let state = view.layoutState
        let size = view.intrinsicContentSize
        let sameShape = (size.width >= 0) == (participant.intrinsicSize.width >= 0)
            && (size.height >= 0) == (participant.intrinsicSize.height >= 0)
        guard sameShape, participant.hugging == (state?.contentHugging ?? participant.hugging),
              participant.compressionResistance == (state?.compressionResistance ?? participant.compressionResistance) else {
            return rebuildOwnConstraints(of: participant)
        }
        setIntrinsicSize(size, of: participant)
    }

    /// Moves the hugging and compression-resistance constraints of a view
    /// without constraints on its frame to a new intrinsic size of the same
    /// shape (the same dimensions defined).
    private func setIntrinsicSize(_ size: CGSize, of participant: Participant) {
        guard size != participant.intrinsicSize else { return }
        participant.intrinsicSize = size
        var index = 0
        for value in [size.width, size.height] where value >= 0 && value.isFinite {
            try? solver.setConstant(of: participant.ownConstraints[index], to: -Double(value))
            try? solver.setConstant(of: participant.ownConstraints[index + 1], to: -Double(value))
            index += 2
        }
    }

    private func noteWrapping(of view: UIView, _ participant: Participant) {
        let key = ObjectIdentifier(view)
        if let label = view as? UILabel, label.wrapsAtSolvedWidth {
            wrappingLabels[key] = participant
        } else {
            wrappingLabels[key] = nil
        }
    }

    /// Multi-line labels wrap at the width just solved for them (UIKit's
    /// automatic `preferredMaxLayoutWidth`): each label whose solved width
    /// changed is measured again at that width and the system re-solved with
    /// its new height, until the widths settle. `subtree` limits this to the
    /// labels inside one view (when measuring its fitting size).
    private func wrapLabelsAtSolvedWidths(inside subtree: UIView? = nil) {
        guard !wrappingLabels.isEmpty else { return }
        for _ in 0..<LayoutMetrics.maximumLayoutRounds {
            var changed = false
            for participant in wrappingLabels.values {
                guard let label = participant.item as? UILabel else { continue }
                if let subtree, !label.isDescendant(of: subtree) { continue }
                let width = CGFloat(solver.value(of: label.layoutVariables.width))
                guard width > 0, width.isFinite, width != label.automaticWrapWidth else { continue }
                label.automaticWrapWidth = width
                let size = label.intrinsicContentSize
                guard size != participant.intrinsicSize else { continue }
                setIntrinsicSize(size, of: participant)
                changed = true
            }
            if !changed { return }
        }
    }

    /// A label's font or text changed: the constraints on its baselines are
    /// made again with the new ascender, descender and text height.
    private func reinstallBaselineConstraints(of label: UIView) {
        var affected: [NSLayoutConstraint] = []
        for entry in installed.values {
            let constraint = entry.constraint
            if (constraint.firstItem === label && constraint.firstAttribute.isBaseline)
                || (constraint.secondItem === label && constraint.secondAttribute.isBaseline) {
                affected.append(constraint)
            }
        }
        guard !affected.isEmpty else { return }
        // Held meanwhile, so that the label stays a participant (with its own constraints) throughout.
        acquire(label)
        for constraint in affected {
            uninstall(constraint)
            install(constraint)
        }
        release(label)
    }

    private func rebuildOwnConstraints(of participant: Participant) {
        for constraint in participant.ownConstraints { try? solver.remove(constraint) }
        participant.ownConstraints = []
        participant.ownKinds = []
        let dependencies = participant.dependencies
        participant.dependencies = []
        addOwnConstraints(of: participant)
        for dependency in dependencies { release(dependency) }
        retryBrokenConstraints()
    }

    // MARK: - Layout

    /// The update-constraints pass, then the solution applied to the frames
    /// of the views that do not translate their autoresizing masks. Repeats
    /// (a few times at most) while applying frames changes the frames of
    /// views that do, through autoresizing.
    func updateLayoutIfNeeded() {
        guard !isUpdating else { return }
        isUpdating = true
        defer { isUpdating = false }
        var rounds = 0
        while (needsUpdate || hasPendingConstraintUpdates) && rounds < LayoutMetrics.maximumLayoutRounds {
            rounds += 1
            needsUpdate = false
            runConstraintUpdates()
            refreshStaleParticipants()
            wrapLabelsAtSolvedWidths()
            applySolution()
        }
    }

    /// Calls `updateConstraints()` (or the view controller's
    /// `updateViewConstraints()`) on every view marked for it, subviews first.
    private func runConstraintUpdates() {
        var rounds = 0
        while hasPendingConstraintUpdates && rounds < LayoutMetrics.maximumLayoutRounds {
            rounds += 1
            hasPendingConstraintUpdates = false
            guard let root else { return }
            var order: [UIView] = []
            var pending: [UIView] = [root]
            while let next = pending.popLast() {
                order.append(next)
                pending.append(contentsOf: next.subviews)
            }
            for view in order.reversed() where view.layoutState?.needsUpdateConstraints == true {
                view.runUpdateConstraints()
            }
        }
    }

    private func applySolution() {
        let scale = Double(UIScreen.main.scale)
        for participant in participants.values where !participant.translates {
            if let guide = participant.item as? UILayoutGuide {
                applyContentSize(of: guide, scale)
                continue
            }
            guard let view = participant.item as? UIView, view.superview != nil else { continue }
            let frame = view.frame(forAlignmentRect: solvedRect(of: view))
            let left = roundToPixels(Double(frame.minX), scale)
            let top = roundToPixels(Double(frame.minY), scale)
            let right = roundToPixels(Double(frame.maxX), scale)
            let bottom = roundToPixels(Double(frame.maxY), scale)
            view.applyEngineFrame(CGRect(x: left, y: top, width: right - left, height: bottom - top))
        }
    }

    /// A scroll view's content guide, as solved, is its content size.
    private func applyContentSize(of guide: UILayoutGuide, _ scale: Double) {
        guard guide.role == .scrollContent, let scrollView = guide.owningView as? UIScrollView else { return }
        let variables = guide.layoutVariables
        let size = CGSize(width: roundToPixels(solver.value(of: variables.width), scale),
                          height: roundToPixels(solver.value(of: variables.height), scale))
        if size.width >= 0, size.height >= 0, scrollView.contentSize != size { scrollView.contentSize = size }
    }

    private func roundToPixels(_ value: Double, _ scale: Double) -> CGFloat {
        CGFloat((value * scale).rounded() / scale)
    }

    /// The item's rectangle in its parent's coordinates, as solved: a
    /// guide's layout frame, a view's alignment rectangle.
    func solvedRect(of item: LayoutItem) -> CGRect {
        let variables = item.layoutVariables
        return CGRect(x: solver.value(of: variables.minX), y: solver.value(of: variables.minY),
                      width: solver.value(of: variables.width), height: solver.value(of: variables.height))
    }

    // MARK: - Ambiguity

    /// The strength of ``exerciseAmbiguity(of:)``'s pulls: weaker than any
    /// priority an application can give (``strength(_:)`` makes them 1 at
    /// least), so a pull can only choose among solutions that every
    /// constraint likes as well.
    private static let ambiguityPullStrength = Strength(0.5)

    /// Whether the constraints leave any of the view's variables free.
    func isAmbiguous(_ item: LayoutItem) -> Bool {
        guard let participant = participants[ObjectIdentifier(item)], !participant.translates else { return false }
        let variables = item.layoutVariables
        for variable in [variables.minX, variables.minY, variables.width, variables.height]
        where solver.isAmbiguous(variable, ignoring: Self.ambiguityPullStrength) {
            return true
        }
        return false
    }

    /// Moves an ambiguous view to another solution of its constraints
    /// (`exerciseAmbiguityInLayout()`): each of its free variables becomes an
    /// edit variable, weaker than any constraint, and is suggested a value a
    /// random distance one way, or the other way if the first is blocked.
    /// Being weaker than all of them, the pull leaves every constraint
    /// exactly as satisfied as it was, so the view lands on another of the
    /// equally good solutions. The pulls stay, so that later layout passes
    /// keep that solution, until the view leaves the engine (exercising it
    /// again suggests new values); they do not count when asking whether
    /// the view is ambiguous. A view that is not ambiguous has no free
    /// variable and stays where it is.
    func exerciseAmbiguity(of view: UIView) {
        updateLayoutIfNeeded()
        guard let participant = participants[ObjectIdentifier(view)], !participant.translates else { return }
        let variables = view.layoutVariables
        for (variable, isSize) in [(variables.minX, false), (variables.minY, false), (variables.width, true), (variables.height, true)]
        where solver.isAmbiguous(variable, ignoring: Self.ambiguityPullStrength) {
            let start = solver.value(of: variable)
            if !solver.hasEditVariable(variable) {
                guard (try? solver.addEditVariable(variable, strength: Self.ambiguityPullStrength)) != nil else { continue }
                participant.ambiguityPulls.append(variable)
            }
            var distance = Double.random(in: LayoutMetrics.ambiguityExerciseDistance) * (Bool.random() ? 1 : -1)
            if isSize && start + distance < 0 { distance = -distance }
            for _ in 0..<2 {
                try? solver.suggestValue(start + distance, for: variable)
                if abs(solver.value(of: variable) - start) >= 1 { break }
                distance = -distance
            }
        }
        applySolution()
    }

    private func removeAmbiguityPulls(of participant: Participant) {
        for variable in participant.ambiguityPulls { try? solver.removeEditVariable(variable) }
        participant.ambiguityPulls = []
    }

    /// The active constraints that use the item's variables on `axis`.
    func constraintsAffecting(_ item: LayoutItem, axis: NSLayoutConstraint.Axis) -> [NSLayoutConstraint] {
        var result: [NSLayoutConstraint] = []
        for entry in installed.values where entry.items.contains(where: { $0 === item }) {
            if AttributeKind(entry.constraint.firstAttribute).axis == axis { result.append(entry.constraint) }
        }
        return result
    }

    /// The size `view` takes with its width and height pulled towards
    /// `target` at the given priorities (its frame's own constraints set
    /// aside meanwhile); the layout is left as it was.
    func fittingSize(of view: UIView, target: CGSize, horizontal: UILayoutPriority, vertical: UILayoutPriority) -> CGSize {
        acquire(view)
        let participant = participants[ObjectIdentifier(view)]!
        var setAside: [Constraint] = []
        if participant.translates {
            for (index, constraint) in participant.ownConstraints.enumerated() where index >= 2 && participant.ownKinds[index] == .frame {
                try? solver.remove(constraint)
                setAside.append(constraint)
            }
        }
        let variables = view.layoutVariables
        // The target and the answer are frame sizes; the variables, the alignment rectangle's.
        let alignmentTarget = view.alignmentRect(forFrame: CGRect(origin: .zero, size: target)).size
        let pulls = [
            Constraint(LayoutSolver.Expression(variables.width) - Double(alignmentTarget.width), .equal, strength: strength(horizontal)),
            Constraint(LayoutSolver.Expression(variables.height) - Double(alignmentTarget.height), .equal, strength: strength(vertical)),
        ]
        var added: [Constraint] = []
        for pull in pulls where (try? solver.add(pull)) != nil { added.append(pull) }
        wrapLabelsAtSolvedWidths(inside: view)
        let size = view.frame(forAlignmentRect: CGRect(x: 0, y: 0, width: solver.value(of: variables.width),
                                                       height: solver.value(of: variables.height))).size
        for pull in added { try? solver.remove(pull) }
        for constraint in setAside { try? solver.add(constraint) }
        wrapLabelsAtSolvedWidths(inside: view)
        release(view)
        return size
    }

    // MARK: - Conflicts

    /// Logs a conflict as UIKit does: the constraints involved, and the one
    /// broken to recover.
    private func reportConflict(breaking constraint: NSLayoutConstraint, items: [LayoutItem]) {
        var lines: [String] = []
        for entry in installed.values where entry.solverConstraint != nil && entry.constraint.priority == .required {
            if entry.items.contains(where: { item in items.contains(where: { $0 === item }) }) {
                lines.append(entry.constraint.description)
            }
        }
        for item in items {
            guard let participant = participants[ObjectIdentifier(item)], participant.translates,
                  let view = item as? UIView else { continue }
            let frame = view.untransformedFrame
            let name = describeLayoutItem(view)
            lines.append("<NSAutoresizingMaskLayoutConstraint:\(objectAddress(view)) h=--& v=--& \(name).minX == \(formatLayoutNumber(frame.minX)), .width == \(formatLayoutNumber(frame.width)), .minY == \(formatLayoutNumber(frame.minY)), .height == \(formatLayoutNumber(frame.height))   (active)>")
        }
        lines.sort()
        lines.append(constraint.description)
        var message = "Unable to simultaneously satisfy constraints.\n"
        message += "\tProbably at least one of the constraints in the following list is one you don't want.\n"
        message += "\tTry this:\n"
        message += "\t\t(1) look at each constraint and try to figure out which you don't expect;\n"
        message += "\t\t(2) find the code that added the unwanted constraint or constraints and fix it.\n"
        message += "(\n"
        for (index, line) in lines.enumerated() {
            message += "    \"\(line)\"\(index == lines.count - 1 ? "" : ",")\n"
        }
        message += ")\n\nWill attempt to recover by breaking constraint\n\(constraint.description)\n"
        reportLayoutProblem(message)
    }
}

extension NSLayoutConstraint.Relation {
    var solverRelation: LayoutSolver.Relation {
        switch self {
        case .lessThanOrEqual: .lessThanOrEqual
        case .equal: .equal
        case .greaterThanOrEqual: .greaterThanOrEqual
        }
    }
}

extension NSLayoutConstraint.Attribute {
    var isBaseline: Bool { self == .firstBaseline || self == .lastBaseline }
}
