/// What a bar shows for one button: a title or an image, and whether it
/// can be tapped.
@preconcurrency @MainActor
open class UIBarItem: NSObject {
    open var title: String? {
        didSet { onChange?() }
    }
    open var image: UIImage? {
        didSet { onChange?() }
    }
    /// A disabled item is greyed and ignores taps.
    open var isEnabled = true {
        didSet { onChange?() }
    }
    open var tag = 0
    /// Lets the bar showing the item redraw it when it changes.
    var onChange: (@MainActor () -> Void)?

    public override init() {
        super.init()
    }
}

/// A button of a navigation bar (or toolbar): a title, an image or one of
/// the system's items, which sends its action when tapped: the
/// ``primaryAction`` if it has one, otherwise ``action`` to ``target``
/// (along the responder chain when the target is nil).
@preconcurrency @MainActor
open class UIBarButtonItem: UIBarItem {
    public enum Style: Int, Sendable {
        case plain = 0
        @available(*, deprecated, message: "Use .plain")
        case bordered = 1
        /// A semibold title, for the item that finishes a task.
        case done = 2
    }

    /// The items UIKit provides, each a title or a symbol image.
    public enum SystemItem: Int, Sendable {
        case done, cancel, edit, save, add, flexibleSpace, fixedSpace, compose, reply, action, organize,
             bookmarks, search, refresh, stop, camera, trash, play, pause, rewind, fastForward, undo, redo
        case pageCurl = 23, close = 24
    }

    open var style: Style = .plain {
        didSet { onChange?() }
    }
    /// The width of a `.fixedSpace` item, or of the button (0: what fits).
    open var width: CGFloat = 0 {
        didSet { onChange?() }
    }
    /// A view shown instead of a button; it handles its own touches.
    open var customView: UIView? {
        didSet { onChange?() }
    }
    open weak var target: AnyObject?
    open var action: Selector?
    /// Runs when the item is tapped, instead of ``action``.
    open var primaryAction: UIAction? {
        didSet {
            if let primaryAction {
                title = primaryAction.title.isEmpty ? title : primaryAction.title
                image = primaryAction.image ?? image
            }
        }
    }
    /// The system item this was made as, if any.
    public private(set) var systemItem: SystemItem?

    public override init() {
        super.init()
    }

    public convenience init(title: String?, style: Style, target: AnyObject?, action: Selector?) {
        self.init()
        self.title = title
        self.style = style
        self.target = target
        self.action = action
    }

    public convenience init(image: UIImage?, style: Style, target: AnyObject?, action: Selector?) {
        self.init()
        self.image = image
        self.style = style
        self.target = target
        self.action = action
    }

    public convenience init(barButtonSystemItem systemItem: SystemItem, target: AnyObject?, action: Selector?) {
        self.init()
        adopt(systemItem)
        self.target = target
        self.action = action
    }

    public convenience init(customView: UIView) {
        self.init()
        self.customView = customView
    }

    /// An item showing `primaryAction`'s title and image unless `title` or
    /// `image` are given.
    public convenience init(title: String? = nil, image: UIImage? = nil, primaryAction: UIAction? = nil) {
        self.init()
        self.primaryAction = primaryAction
        if let title { self.title = title }
        if let image { self.image = image }
    }

    public convenience init(systemItem: SystemItem, primaryAction: UIAction? = nil) {
        self.init()
        adopt(systemItem)
        self.primaryAction = primaryAction
    }

    public static func fixedSpace(_ width: CGFloat) -> UIBarButtonItem {
        let item = UIBarButtonItem(barButtonSystemItem: .fixedSpace, target: nil, action: nil)
        item.width = width
        return item
    }

    public static func flexibleSpace() -> UIBarButtonItem {
        UIBarButtonItem(barButtonSystemItem: .flexibleSpace, target: nil, action: nil)
    }

    /// iOS's titles (in English) and symbols for the system items.
    private func adopt(_ item: SystemItem) {
        systemItem = item
        switch item {
        case .done: (title, style) = ("Done", .done)
        case .cancel: title = "Cancel"
        case .edit: title = "Edit"
        case .save: (title, style) = ("Save", .done)
        case .undo: title = "Undo"
        case .redo: title = "Redo"
        case .flexibleSpace, .fixedSpace: break
        case .add: image = UIImage(systemName: "plus")
        case .compose: image = UIImage(systemName: "square.and.pencil")
        case .reply: image = UIImage(systemName: "arrowshape.turn.up.left")
        case .action: image = UIImage(systemName: "square.and.arrow.up")
        case .organize: image = UIImage(systemName: "folder")
        case .bookmarks: image = UIImage(systemName: "book")
        case .search: image = UIImage(systemName: "magnifyingglass")
        case .refresh: image = UIImage(systemName: "arrow.clockwise")
        case .stop, .close: image = UIImage(systemName: "xmark")
        case .camera: image = UIImage(systemName: "camera")
        case .trash: image = UIImage(systemName: "trash")
        case .play: image = UIImage(systemName: "play.fill")
        case .pause: image = UIImage(systemName: "pause.fill")
        case .rewind: image = UIImage(systemName: "backward.fill")
        case .fastForward: image = UIImage(systemName: "forward.fill")
        case .pageCurl: break
        }
    }

    /// Whether the item is room between buttons rather than a button.
    var isSpace: Bool { systemItem == .flexibleSpace || systemItem == .fixedSpace }

    /// What a tap on the item's button does: the primary action, or the
    /// named action sent to the target (the responder chain for nil).
    func performTap(with event: UIEvent?) {
        guard isEnabled else { return }
        if let primaryAction {
            primaryAction.perform(sender: self)
        } else if let action {
            _ = UIApplication.shared.sendAction(action, to: target, from: self, for: event)
        }
    }
}

/// What a navigation bar shows while a controller is on top: a title (or a
/// view in its place), buttons on either side, and what the back button
/// of the controller above it says.
@preconcurrency @MainActor
open class UINavigationItem: NSObject {
    open var title: String? {
        didSet { onChange?() }
    }
    /// Shown in the middle instead of the title.
    open var titleView: UIView? {
        didSet { onChange?() }
    }
    /// The back button shown while a controller above this one is on top;
    /// nil makes one from ``backButtonTitle`` or ``title``.
    open var backBarButtonItem: UIBarButtonItem? {
        didSet { onChange?() }
    }
    /// The title of the back button shown above this item, if no
    /// ``backBarButtonItem`` is given.
    open var backButtonTitle: String? {
        didSet { onChange?() }
    }
    /// Hides the back button while this item is on top.
    open var hidesBackButton = false {
        didSet { onChange?() }
    }
    /// Whether the left items go beside the back button rather than in its place.
    open var leftItemsSupplementBackButton = false {
        didSet { onChange?() }
    }
    /// The items on the leading side, the first nearest the edge.
    open var leftBarButtonItems: [UIBarButtonItem]? {
        didSet { onChange?() }
    }
    /// The items on the trailing side, the first nearest the edge.
    open var rightBarButtonItems: [UIBarButtonItem]? {
        didSet { onChange?() }
    }
    open var leftBarButtonItem: UIBarButtonItem? {
        get { leftBarButtonItems?.first }
        set { leftBarButtonItems = newValue.map { [$0] } }
    }
    open var rightBarButtonItem: UIBarButtonItem? {
        get { rightBarButtonItems?.first }
        set { rightBarButtonItems = newValue.map { [$0] } }
    }
    /// Lets the bar showing the item redraw it when it changes.
    var onChange: (@MainActor () -> Void)?

    public override init() {
        super.init()
    }

    public convenience init(title: String) {
        self.init()
        self.title = title
    }

    open func setHidesBackButton(_ hidesBackButton: Bool, animated: Bool) {
        self.hidesBackButton = hidesBackButton
    }

    open func setLeftBarButton(_ item: UIBarButtonItem?, animated: Bool) {
        leftBarButtonItem = item
    }

    open func setRightBarButton(_ item: UIBarButtonItem?, animated: Bool) {
        rightBarButtonItem = item
    }

    open func setLeftBarButtonItems(_ items: [UIBarButtonItem]?, animated: Bool) {
        leftBarButtonItems = items
    }

    open func setRightBarButtonItems(_ items: [UIBarButtonItem]?, animated: Bool) {
        rightBarButtonItems = items
    }
}
