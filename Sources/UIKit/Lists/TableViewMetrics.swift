import Foundation

/// The measures of a table view and its standard cells that UIKit does not
/// document, in one place. UIKit's numbers change with the device and the
/// release; these are an iPhone's in portrait on iOS 15–17, read off
/// screenshots and developers' reports, rounded to whole points.
public enum TableViewMetrics {
    /// The height of a standard row: 44 points, UIKit's documented default
    /// height of a table row (Human Interface Guidelines: 44 points is the
    /// smallest comfortable tap target).
    public static let defaultRowHeight: CGFloat = 44
    /// The space between a cell's edges and its labels, and the left inset
    /// of the separators: the 16-point layout margin of an iPhone in portrait.
    public static let contentMargin: CGFloat = 16
    /// The space between a cell's image and its text.
    public static let imageTextSpacing: CGFloat = 16
    /// The width kept for a standard accessory (chevron, checkmark, info
    /// button), before the trailing margin.
    public static let accessoryWidth: CGFloat = 20
    /// The width kept for an info button beside a chevron.
    public static let detailDisclosureAccessoryWidth: CGFloat = 36
    /// The height of a plain table's section header or footer that shows a title.
    public static let plainTitleHeight: CGFloat = 28
    /// The height of a grouped table's section header that shows a title
    /// (the caption sits at its bottom).
    public static let groupedHeaderTitleHeight: CGFloat = 38
    /// The height of a grouped table's section footer that shows a title.
    public static let groupedFooterTitleHeight: CGFloat = 38
    /// The space a grouped table leaves above a section without a header
    /// title (35 points above the first one in UIKit; one value here).
    public static let groupedEmptyHeaderHeight: CGFloat = 18
    /// The space a grouped table leaves below a section without a footer title.
    public static let groupedEmptyFooterHeight: CGFloat = 18
    /// How far an inset-grouped table's sections stand in from its sides:
    /// the layout margin (16 points on an iPhone in portrait, 20 on wider screens).
    public static let insetGroupedSideInset: CGFloat = 16
    /// The corner radius of an inset-grouped section.
    public static let insetGroupedCornerRadius: CGFloat = 10
    /// The width of the buttons revealed by a swipe: each action's title
    /// plus this much on either side, and never narrower than
    /// ``minimumSwipeActionWidth``.
    public static let swipeActionPadding: CGFloat = 15
    /// The narrowest swipe action button.
    public static let minimumSwipeActionWidth: CGFloat = 74
    /// How far past all its buttons a row must be dragged to perform the
    /// first action ("full swipe"): a fraction of the row's width.
    public static let fullSwipeFraction: CGFloat = 0.6
    /// The width of the editing control's column on the leading side of a
    /// row in editing mode; the content view stands in by as much (the
    /// 38-point offset of the content view in developers' view-hierarchy
    /// dumps of iOS 7 and later).
    public static let editControlWidth: CGFloat = 38
    /// The diameter of the round delete and insert buttons.
    public static let editControlDiameter: CGFloat = 22
    /// The width of the reorder control on the trailing side of a movable
    /// row in editing mode (the same dumps give 38 points).
    public static let reorderControlWidth: CGFloat = 38
    /// The length of the reorder control's three lines.
    public static let reorderGripWidth: CGFloat = 18
    /// How long an update's rows take to move, come and go. UIKit does not
    /// document it and it was not measured here: 0.3 s is our choice, a
    /// plausible length for a system animation of that size.
    public static let updateAnimationDuration: TimeInterval = 0.3
}
