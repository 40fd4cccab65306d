/// The measures, colours and timings of navigation bars and navigation
/// transitions that UIKit does not document, in one place, each with where
/// it comes from.
public enum NavigationMetrics {
    // MARK: The bar

    /// A navigation bar's height without large titles: 44 points on iPhone
    /// since iOS 7 (the bar's frame reads 44 high, below a 20-point status
    /// bar, in a UINavigationController's `navigationBar.frame`).
    public static let barHeight: CGFloat = 44
    /// The title: 17 points, semibold (iOS 15's default title attributes:
    /// the "short emphasized body" text style, 17 pt).
    public static let titleFontSize: CGFloat = 17
    /// Bar button items' titles and the back button's title: 17 points,
    /// regular for `.plain` items and the back button, semibold for `.done`.
    public static let itemFontSize: CGFloat = 17
    /// The space between the bar's edges and the outermost items: iPhone's
    /// 16-point layout margins.
    public static let edgeMargin: CGFloat = 16
    /// Between neighbouring bar button items (iOS's default 8 points,
    /// measured with a fixed-space item of width 0).
    public static let itemSpacing: CGFloat = 8
    /// The least space between the title and the items beside it (6 points
    /// in iOS 15's layout; the title is pushed off centre, then truncated).
    public static let titleGap: CGFloat = 6
    /// The back button's chevron: about 12 × 21 points, 8 points from the
    /// leading edge, with 6 points to its title (iOS 13 to 17's
    /// `chevron.backward` at the bar's symbol size, from screenshots).
    public static let backChevronSize = CGSize(width: 12, height: 21)
    public static let backChevronLeading: CGFloat = 8
    public static let backChevronTitleGap: CGFloat = 6
    public static let backChevronLineWidth: CGFloat = 3
    /// The back button's title when the previous item has none, or when
    /// its title does not fit (iOS then shows "Back", and only the chevron
    /// when even that does not fit).
    public static let defaultBackTitle = "Back"
    /// The side of a bar button item's image (the bar's symbol size).
    public static let itemImageSide: CGFloat = 22
    /// The bar's background, as the tab bar's (iOS's light bar chrome).
    public static let barBackgroundColor = ControlMetrics.tabBarBackgroundColor

    // MARK: Transitions

    /// How long a push or pop slides (iOS's navigation transition takes
    /// about 0.35 s; chosen to match it, Apple gives no figure).
    public static let transitionDuration: TimeInterval = 0.35
    /// How far the view underneath sits off to the leading side while the
    /// top one covers it: 30 % of the width (iOS 7 and later's parallax).
    public static let parallaxFraction: CGFloat = 0.3
    /// The dimming over the covered view at its darkest: black at 10 %
    /// (chosen to match iOS's look during a swipe back).
    public static let coveredDimming: CGFloat = 0.1
    /// How near the leading edge the back swipe must start: the screen-edge
    /// pan's 20 points.
    public static let backSwipeEdge: CGFloat = GestureThresholds.screenEdgeRegion
    /// A back swipe let go moving faster than this many widths per second
    /// completes or cancels by its direction; slower, by whether it passed
    /// half way (iOS's behaviour, from observation: a flick of about a
    /// screen width per second pops).
    public static let backSwipeDecisiveSpeed: CGFloat = 1
    /// How far a slow back swipe must go to complete the pop.
    public static let backSwipeCompletionFraction: CGFloat = 0.5
    /// How long showing or hiding the bar takes when animated
    /// (`UINavigationController.hideShowBarDuration`: 0.2 s on iOS).
    public static let hideShowBarDuration: CGFloat = 0.2
}
