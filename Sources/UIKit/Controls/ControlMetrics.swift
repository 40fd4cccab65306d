/// The measures of the controls that UIKit does not document, in one place.
/// The first is what iOS is observed to use; the others were chosen here to
/// match what iOS shows.
public enum ControlMetrics {
    /// How far outside its bounds, on every side, a tracked touch still
    /// counts as inside the control, for the drag and touch-up events and
    /// for the highlight (UIKit's undocumented margin).
    public static let touchInsideMargin: CGFloat = 70

    /// The opacity of a system button's title and image while highlighted.
    public static let systemButtonHighlightedAlpha: CGFloat = 0.2
    /// The size every switch has, whatever frame it is given (as UIKit's).
    public static let switchSize = CGSize(width: 51, height: 31)
    /// How far a finger must move across a switch before the switch follows
    /// it instead of toggling on release: as far as a pan must move.
    public static let switchDragDistance: CGFloat = GestureThresholds.panHysteresis
    /// The diameter of a slider's thumb.
    public static let sliderThumbDiameter: CGFloat = 28
    /// How far around the thumb a touch still grabs it: enough to make the
    /// grab area 44 points, Apple's minimum touch target.
    public static let sliderThumbTouchMargin: CGFloat = 8
}
