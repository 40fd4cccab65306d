import Foundation

/// The actions revealed by swiping a row sideways.
///
/// A pan recognizer of the table's own (UIKit has a private one for the
/// same job) competes with the scroll view's pan for every drag. Both
/// start after the same movement (`GestureThresholds.panHysteresis`), and
/// the table lets only one begin, by the direction of that first movement:
///
/// 1. Mostly horizontal, on a row whose delegate gives actions for that
///    edge (or whose actions are open): the swipe begins and the scroll
///    view's pan does not; the row's highlight is cancelled like any
///    content touch when a drag begins.
/// 2. Otherwise the swipe fails and the scroll view scrolls.
/// 3. While the finger moves, the row's content follows it, uncovering the
///    buttons. On release, a row dragged past
///    ``TableViewMetrics/fullSwipeFraction`` of its width performs its first
///    action (if the configuration allows a full swipe); one dragged past
///    half its buttons stays open; any other closes.
/// 4. While a row is open, a touch anywhere else on the table, a scroll,
///    a reload or editing closes it; that touch selects nothing.
///
/// In a right-to-left table everything is mirrored (UIKit's trailing edge
/// is then the left one): a drag to the right uncovers the trailing
/// actions on the left side. The code below works in leading-to-trailing
/// terms (`directionalTranslation`); the cell and the buttons mirror their
/// frames.
extension UITableView {
    /// A row whose actions are being uncovered, or are open.
    struct SwipeState {
        let indexPath: IndexPath
        let cell: UITableViewCell
        let configuration: UISwipeActionsConfiguration
        /// True for the trailing edge's actions (the row moves left).
        let isTrailing: Bool
        let buttons: SwipeActionButtons
        /// The content's offset when this drag began.
        var startOffset: CGFloat
        var isOpen: Bool
    }

    func setUpSwipeActions() {
        swipeRecognizer.addTarget(self, action: UITableView.swipeRecognizerChanged)
        swipeRecognizer.maximumNumberOfTouches = 1
        addGestureRecognizer(swipeRecognizer)
    }

    /// Steps 1 and 2: which of the two pans may begin.
    /// Nil when the recognizer is neither pan, for the scroll view to decide.
    func swipeDecision(for gestureRecognizer: UIGestureRecognizer) -> Bool? {
        if gestureRecognizer === swipeRecognizer { return swipeCanBegin() }
        if gestureRecognizer === panGestureRecognizer && swipeCanBegin() { return false }
        return nil
    }

    /// Whether the drag under way is a swipe: mostly sideways, on a row
    /// with actions for the edge it moves away from.
    private func swipeCanBegin() -> Bool {
        guard !isEditing else { return false }
        let translation = swipeRecognizer.translation(in: self)
        guard abs(translation.x) > abs(translation.y) else { return false }
        let location = swipeRecognizer.location(in: self)
        let start = CGPoint(x: location.x - translation.x, y: location.y - translation.y)
        guard let indexPath = indexPathForRow(at: start) else { return false }
        if let swipe, swipe.indexPath == indexPath { return true }
        return swipeConfiguration(for: indexPath, trailing: directionalTranslation < 0) != nil
    }

    /// The swipe's horizontal movement towards the trailing edge (positive)
    /// or the leading one: the screen's x, turned round in right to left.
    private var directionalTranslation: CGFloat {
        let x = swipeRecognizer.translation(in: self).x
        return isRightToLeft ? -x : x
    }

    private func swipeConfiguration(for indexPath: IndexPath, trailing: Bool) -> UISwipeActionsConfiguration? {
        guard dataSource?.tableView(self, canEditRowAt: indexPath) ?? false else { return nil }
        let configuration = trailing
            ? tableDelegate?.tableView(self, trailingSwipeActionsConfigurationForRowAt: indexPath)
            : tableDelegate?.tableView(self, leadingSwipeActionsConfigurationForRowAt: indexPath)
        guard let configuration, !configuration.actions.isEmpty else { return nil }
        return configuration
    }

    func swipeRecognizerChanged() {
        switch swipeRecognizer.state {
        case .began: swipeBegan()
        case .changed: swipeMoved()
        case .ended: swipeEnded()
        case .cancelled, .failed: closeSwipe()
        default: break
        }
    }

    private func swipeBegan() {
        // The content's held touches are dropped, as when a scroll starts.
        scrollDidStart(with: swipeRecognizer.currentTouchesNotIgnored)
        cancelRowTracking()
        let translation = swipeRecognizer.translation(in: self)
        let location = swipeRecognizer.location(in: self)
        guard let indexPath = indexPathForRow(at: CGPoint(x: location.x - translation.x, y: location.y - translation.y)),
              let cell = cellForRow(at: indexPath) else { return }
        if var open = swipe, open.indexPath == indexPath {
            open.startOffset = cell.swipeOffset
            swipe = open
            return
        }
        endSwipe()
        let trailing = directionalTranslation < 0
        guard let configuration = swipeConfiguration(for: indexPath, trailing: trailing) else { return }
        uncoverButtons(configuration, for: indexPath, cell: cell, isTrailing: trailing)
        swipeMoved()
    }

    /// Puts a configuration's buttons behind a row's content.
    private func uncoverButtons(_ configuration: UISwipeActionsConfiguration, for indexPath: IndexPath,
                                cell: UITableViewCell, isTrailing: Bool) {
        let buttons = SwipeActionButtons(configuration: configuration, isTrailing: isTrailing, isMirrored: isRightToLeft)
        // Behind the content, in front of the backgrounds: a selected row's
        // grey background must not cover them.
        cell.insertSubview(buttons, belowSubview: cell.contentView)
        swipe = SwipeState(indexPath: indexPath, cell: cell, configuration: configuration, isTrailing: isTrailing,
                           buttons: buttons, startOffset: 0, isOpen: false)
        buttons.onAction = { [weak self] action, button in self?.perform(action, from: button) }
    }

    /// Opens a row's trailing actions without a swipe (editing mode's
    /// Delete button), closing any other row's.
    func openSwipeActions(_ configuration: UISwipeActionsConfiguration, for indexPath: IndexPath, cell: UITableViewCell) {
        endSwipe()
        uncoverButtons(configuration, for: indexPath, cell: cell, isTrailing: true)
        guard var swipe else { return }
        swipe.isOpen = true
        self.swipe = swipe
        setSwipeOffset(-swipe.buttons.totalWidth, of: swipe)
    }

    /// Step 3: the content follows the finger, on the side of its actions only.
    private func swipeMoved() {
        guard let swipe else { return }
        var offset = swipe.startOffset + directionalTranslation
        let limit = swipe.configuration.performsFirstActionWithFullSwipe ? swipe.cell.bounds.width : swipe.buttons.totalWidth
        offset = swipe.isTrailing ? min(0, max(-limit, offset)) : max(0, min(limit, offset))
        setSwipeOffset(offset, of: swipe)
    }

    private func setSwipeOffset(_ offset: CGFloat, of swipe: SwipeState) {
        swipe.cell.swipeOffset = offset
        let width = abs(offset)
        let atRight = swipe.isTrailing != swipe.buttons.isMirrored
        swipe.buttons.frame = CGRect(x: atRight ? swipe.cell.bounds.width - width : 0, y: 0,
                                     width: width, height: swipe.cell.bounds.height)
    }

    private func swipeEnded() {
        guard var swipe else { return }
        let width = abs(swipe.cell.swipeOffset)
        if swipe.configuration.performsFirstActionWithFullSwipe,
           width >= swipe.cell.bounds.width * TableViewMetrics.fullSwipeFraction,
           let first = swipe.configuration.actions.first {
            setSwipeOffset(swipe.isTrailing ? -swipe.cell.bounds.width : swipe.cell.bounds.width, of: swipe)
            return perform(first, from: swipe.buttons.button(for: first) ?? swipe.buttons)
        }
        if width >= swipe.buttons.totalWidth / 2 {
            swipe.isOpen = true
            self.swipe = swipe
            setSwipeOffset(swipe.isTrailing ? -swipe.buttons.totalWidth : swipe.buttons.totalWidth, of: swipe)
        } else {
            closeSwipe()
        }
    }

    private func perform(_ action: UIContextualAction, from button: UIView) {
        action.handler(action, button) { [weak self] _ in self?.closeSwipe() }
    }

    /// Step 4: a touch began on the table while a row is open. Returns true
    /// if it closed the row (and so the touch does nothing else).
    func closeSwipeActions(forTouchAt point: CGPoint) -> Bool {
        guard let swipe, swipe.isOpen else { return false }
        if swipe.buttons.convert(point, from: self).x >= 0, swipe.buttons.bounds.contains(swipe.buttons.convert(point, from: self)) {
            return false
        }
        closeSwipe()
        return true
    }

    /// Whether a row's actions are open, and which.
    public var swipedRow: IndexPath? { swipe?.isOpen == true ? swipe?.indexPath : nil }

    /// Closes the open row, if any.
    func closeSwipe() {
        guard let swipe else { return }
        self.swipe = nil
        swipe.cell.swipeOffset = 0
        swipe.buttons.removeFromSuperview()
    }

    /// Closes the open row at once, for a reload or editing.
    func endSwipe() {
        closeSwipe()
    }
}

/// The buttons behind a swiped row, first action nearest the row's edge.
final class SwipeActionButtons: UIView {
    let actions: [UIContextualAction]
    let isTrailing: Bool
    /// Whether the row is right to left: its trailing edge is its left one.
    let isMirrored: Bool
    private(set) var buttons: [UIButton] = []
    private var widths: [CGFloat] = []
    var onAction: (@MainActor (UIContextualAction, UIView) -> Void)?

    init(configuration: UISwipeActionsConfiguration, isTrailing: Bool, isMirrored: Bool) {
        actions = configuration.actions
        self.isTrailing = isTrailing
        self.isMirrored = isMirrored
        super.init(frame: .zero)
        clipsToBounds = true
        for action in actions {
            let button = UIButton(type: .custom)
            button.setTitle(action.title, for: .normal)
            button.setTitleColor(.white, for: .normal)
            button.backgroundColor = action.backgroundColor
            button.addAction(UIAction { [weak self] _ in self?.onAction?(action, button) }, for: .touchUpInside)
            let titleWidth = button.titleLabel?.sizeThatFits(CGSize(width: CGFloat.greatestFiniteMagnitude, height: 44)).width ?? 0
            widths.append(max(TableViewMetrics.minimumSwipeActionWidth, titleWidth + 2 * TableViewMetrics.swipeActionPadding))
            buttons.append(button)
            addSubview(button)
        }
    }

    required init?(coder: NSCoder) {
        actions = []
        isTrailing = true
        isMirrored = false
        super.init(coder: coder)
    }

    /// The width of all the buttons, at which the row rests open.
    var totalWidth: CGFloat {
        var total: CGFloat = 0
        for width in widths { total += width }
        return total
    }

    func button(for action: UIContextualAction) -> UIView? {
        for (index, candidate) in actions.enumerated() where candidate === action { return buttons[index] }
        return nil
    }

    /// The buttons share the uncovered width in proportion to their own;
    /// the first action sits at the row's edge.
    override func layoutSubviews() {
        super.layoutSubviews()
        let total = max(totalWidth, 1)
        let scale = bounds.width / total
        let atRight = isTrailing != isMirrored
        var edge: CGFloat = atRight ? bounds.width : 0
        for (index, button) in buttons.enumerated() {
            let width = widths[index] * scale
            if atRight {
                edge -= width
                button.frame = CGRect(x: edge, y: 0, width: width, height: bounds.height)
            } else {
                button.frame = CGRect(x: edge, y: 0, width: width, height: bounds.height)
                edge += width
            }
        }
    }
}
