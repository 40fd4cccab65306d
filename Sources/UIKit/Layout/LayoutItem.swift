import LayoutSolver

/// A view or a layout guide: something with a rectangle the layout engine
/// solves for, held in four variables in its parent view's coordinates
/// (a view's superview, a guide's owning view).
@MainActor
protocol LayoutItem: AnyObject {
    var layoutVariables: LayoutVariables { get }
    /// The view whose coordinates the variables are in: the superview of a
    /// view, the owning view of a guide.
    var layoutParentView: UIView? { get }
    /// The view a constraint on this item is installed in at least: the
    /// view itself, or a guide's owning view.
    var layoutOwnerView: UIView? { get }
}

/// The four unknowns of an item's rectangle: origin and size, in its
/// parent view's coordinates.
@MainActor
final class LayoutVariables {
    let minX: Variable
    let minY: Variable
    let width: Variable
    let height: Variable

    init(_ name: String) {
        minX = Variable("\(name).minX")
        minY = Variable("\(name).minY")
        width = Variable("\(name).width")
        height = Variable("\(name).height")
    }
}

/// A view's Auto Layout state, made the first time the view takes part.
@MainActor
final class ViewLayoutState {
    lazy var variables = LayoutVariables("view")
    /// The constraints installed in this view (``UIView/constraints``).
    var constraints: [NSLayoutConstraint] = []
    var translatesAutoresizingMaskIntoConstraints = true
    var contentHugging = (horizontal: UILayoutPriority.defaultLow, vertical: UILayoutPriority.defaultLow)
    var compressionResistance = (horizontal: UILayoutPriority.defaultHigh, vertical: UILayoutPriority.defaultHigh)
    var layoutMargins = LayoutMetrics.defaultLayoutMargins
    /// The margins as last set through `directionalLayoutMargins`, which
    /// `layoutMargins` follows when the view's direction changes; nil once
    /// `layoutMargins` itself is set.
    var directionalMargins: NSDirectionalEdgeInsets?
    var layoutGuides: [UILayoutGuide] = []
    var marginsGuide: UILayoutGuide?
    var safeAreaGuide: UILayoutGuide?
    var readableGuide: UILayoutGuide?
    /// A scroll view's `contentLayoutGuide` and `frameLayoutGuide`.
    var scrollContentGuide: UILayoutGuide?
    var scrollFrameGuide: UILayoutGuide?
    var needsUpdateConstraints = false
    var autoresizingMask: UIView.AutoresizingMask = []
    var autoresizesSubviews = true
    var insetsLayoutMarginsFromSafeArea = true
    var preservesSuperviewLayoutMargins = false
    /// The safe area insets the view last announced with
    /// `safeAreaInsetsDidChange()` (see `SafeArea.swift`).
    var announcedSafeAreaInsets = UIEdgeInsets.zero
    /// The engine of the view tree this view is the root of, if it has
    /// constraints anywhere.
    var engine: LayoutEngine?
}

/// The guides a view makes for itself, each tied to the view's edges by
/// constraints of its own.
enum GuideRole {
    /// A guide the application added and constrains itself.
    case custom
    /// ``UIView/layoutMarginsGuide``: the bounds inset by the layout margins.
    case margins
    /// ``UIView/safeAreaLayoutGuide``: the bounds inset by the safe area.
    case safeArea
    /// ``UIView/readableContentGuide``: inside the margins, at most the
    /// readable width, centred.
    case readableContent
    /// `UIScrollView.contentLayoutGuide`: the content's rectangle, from the
    /// content's origin; its size becomes the scroll view's `contentSize`.
    case scrollContent
    /// `UIScrollView.frameLayoutGuide`: the scroll view's visible rectangle,
    /// which moves through the content as it scrolls.
    case scrollFrame
}
