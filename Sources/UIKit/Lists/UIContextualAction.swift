import Foundation

/// An action revealed by swiping a row: a titled button that runs a handler.
@preconcurrency @MainActor
open class UIContextualAction {
    /// How the action looks and what a full swipe does with it.
    public enum Style: Int, Sendable {
        /// A grey button.
        case normal
        /// A red button, for deleting.
        case destructive
    }

    /// Runs when the user taps the action's button (or swipes fully): the
    /// action, the button, and a completion to call with whether it was
    /// performed. The row's actions close when it is called.
    public typealias Handler = @MainActor (UIContextualAction, UIView, @escaping @MainActor (Bool) -> Void) -> Void

    public let style: Style
    /// The button's title.
    open var title: String?
    /// The button's colour; the style's by default (red for destructive, grey otherwise).
    open var backgroundColor: UIColor!
    /// An image above the title.
    open var image: UIImage?
    public let handler: Handler

    /// Makes an action.
    public init(style: Style, title: String?, handler: @escaping Handler) {
        self.style = style
        self.title = title
        self.handler = handler
        backgroundColor = style == .destructive ? .systemRed : .systemGray
    }
}

/// The actions for one edge of a row, first action nearest the edge.
@preconcurrency @MainActor
open class UISwipeActionsConfiguration {
    public let actions: [UIContextualAction]
    /// Whether swiping the row most of the way across performs the first
    /// action (``TableViewMetrics/fullSwipeFraction``). Default true.
    open var performsFirstActionWithFullSwipe = true

    public init(actions: [UIContextualAction]) {
        self.actions = actions
    }
}
