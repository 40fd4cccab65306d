/// The measures and colours of the controls that UIKit does not document,
/// in one place, each with where it comes from.
public enum ControlMetrics {
    /// How far outside its bounds, on every side, a tracked touch still
    /// counts as inside the control, for the drag and touch-up events and
    /// for the highlight (UIKit's undocumented margin, as iOS is observed
    /// to use it).
    public static let touchInsideMargin: CGFloat = 70

    // MARK: Buttons

    /// A button title's font size: Interface Builder's default for a
    /// button ("System 15.0").
    public static let buttonTitleFontSize: CGFloat = 15
    /// Space above and below the title of a button without content insets:
    /// UIKit makes a default button its title's height plus 6 points at the
    /// top and at the bottom (seen in the view debugger: an 18-point title,
    /// 21 points high, in a 33-point button).
    public static let buttonVerticalPadding: CGFloat = 6
    /// The size an empty button (no title, no image) fits: iOS sizes
    /// `UIButton(frame: .zero)` to 30 × 34 points with `sizeToFit()`
    /// (measured on Apple's simulator by a peer's UIKit test suite; not
    /// documented).
    public static let emptyButtonSize = CGSize(width: 30, height: 34)
    /// The opacity of a system button's title and image while highlighted:
    /// iOS fades them to a light version of the tint, about a fifth of their
    /// opacity in screenshots of iOS 13 to 17 (not documented).
    public static let systemButtonHighlightedAlpha: CGFloat = 0.2
    /// A disabled system button's default title colour: iOS 13's grey for
    /// unavailable text, `UIColor.tertiaryLabel` (not documented for buttons).
    public static let systemButtonDisabledTitleColor = UIColor.tertiaryLabel
    /// What darkens a highlighted custom button's image
    /// (`adjustsImageWhenHighlighted`): black at a third of full opacity
    /// over the image's shape (chosen to match iOS's darkening).
    public static let buttonHighlightedImageShade = UIColor(white: 0, alpha: 1.0 / 3)
    /// The opacity of a disabled custom button's image
    /// (`adjustsImageWhenDisabled`; chosen to match iOS's faded look).
    public static let buttonDisabledImageAlpha: CGFloat = 0.5

    // MARK: Switches

    /// The size every switch has, whatever frame it is given (Apple's
    /// UISwitch documentation: the switch enforces a size of its own, which
    /// is 51 × 31 points on iOS 7 and later).
    public static let switchSize = CGSize(width: 51, height: 31)
    /// The diameter of a switch's thumb: the switch's height less 2 points
    /// on each side (iOS 7 and later).
    public static let switchThumbDiameter: CGFloat = 27
    /// The gap between a switch's thumb and the edge of its track.
    public static let switchThumbInset: CGFloat = 2
    /// How long the thumb takes to slide to the other side, and to stretch
    /// when pressed (UIKit does not document it; a quarter second, Core
    /// Animation's default duration, chosen here).
    public static let switchAnimationDuration: TimeInterval = 0.25
    /// How much wider the thumb grows while a finger is on the switch (iOS
    /// stretches it towards the middle; not documented, chosen here).
    public static let switchThumbStretch: CGFloat = 7
    /// How far a finger must move across a switch before the switch follows
    /// it instead of toggling on release: as far as a pan must move (chosen).
    public static let switchDragDistance: CGFloat = GestureThresholds.panHysteresis

    // MARK: Sliders

    /// The diameter of a slider's thumb (iOS 7 and later).
    public static let sliderThumbDiameter: CGFloat = 28
    /// The height of a slider's track, with round ends: 4 points since iOS
    /// 13 (2 before).
    public static let sliderTrackHeight: CGFloat = 4
    /// How far around the thumb a touch still grabs it: enough to make the
    /// grab area 44 points, Apple's minimum touch target (chosen).
    public static let sliderThumbTouchMargin: CGFloat = 8
    /// A slider's intrinsic height: 31 points, the height Interface Builder
    /// gives a new slider since iOS 7 (its intrinsic width is none).
    public static let sliderIntrinsicHeight: CGFloat = 31

    // MARK: Switch and slider looks

    /// The thumb's shadow, under switches' and sliders' white thumbs: a
    /// soft black shadow a little below (chosen to match iOS's look).
    public static let thumbShadowOpacity: Float = 0.25
    public static let thumbShadowOffset = CGSize(width: 0, height: 2)
    public static let thumbShadowRadius: CGFloat = 3

    /// Gives `thumb` the thumb's shadow.
    @MainActor static func applyThumbShadow(to thumb: CALayer) {
        thumb.shadowOpacity = thumbShadowOpacity
        thumb.shadowOffset = thumbShadowOffset
        thumb.shadowRadius = thumbShadowRadius
    }
    /// The opacity of a disabled switch or slider, drawn as one group
    /// (iOS dims them to about half; not documented).
    public static let disabledControlAlpha: CGFloat = 0.5

    // MARK: Segmented controls

    /// A segmented control's height: 32 points since iOS 13 (Interface
    /// Builder's default for one; 28 before).
    public static let segmentedControlHeight: CGFloat = 32
    /// The track's corner radius (iOS 13 and later; about 9 in screenshots,
    /// chosen 8).
    public static let segmentedControlCornerRadius: CGFloat = 8
    /// The gap between the selected segment's thumb and the track's edge.
    public static let segmentedControlThumbInset: CGFloat = 2
    /// The thumb's corner radius: the track's less the inset, rounded (chosen).
    public static let segmentedControlThumbCornerRadius: CGFloat = 7
    /// The thumb's faint shadow (chosen to match iOS 13 to 17's look).
    public static let segmentedControlThumbShadowOpacity: Float = 0.12
    public static let segmentedControlThumbShadowOffset = CGSize(width: 0, height: 3)
    public static let segmentedControlThumbShadowRadius: CGFloat = 4
    /// The height of the separators between unselected segments (chosen:
    /// half the control).
    public static let segmentedControlSeparatorHeight: CGFloat = 16
    /// The titles' font size: 13 points, semibold when selected (iOS 13 and later).
    public static let segmentedControlFontSize: CGFloat = 13
    /// Space on each side of the widest segment's content when the control
    /// sizes itself (chosen).
    public static let segmentedControlContentPadding: CGFloat = 12
    /// The opacity of a pressed, unselected segment's content (chosen: iOS
    /// fades it while the finger is on it).
    public static let segmentedControlHighlightedContentAlpha: CGFloat = 0.5

    // MARK: Steppers

    /// A stepper's size, whatever frame it is given: 94 × 32 points since
    /// iOS 13 (its intrinsic size; 94 × 29 before).
    public static let stepperSize = CGSize(width: 94, height: 32)
    /// The corner radius of its track (chosen, as the segmented control's).
    public static let stepperCornerRadius: CGFloat = 8
    /// The divider between − and +: 1 point wide, this high (chosen).
    public static let stepperDividerHeight: CGFloat = 18
    /// The − and + glyphs: bars this long and this thick (chosen to match
    /// iOS 13 to 17's look).
    public static let stepperGlyphLength: CGFloat = 14
    public static let stepperGlyphThickness: CGFloat = 2
    /// How long a finger must stay on − or + before the value starts to
    /// repeat, and how often it repeats after that: AppKit documents these
    /// for NSStepper's autorepeat (0.5 seconds, then ten times a second);
    /// UIKit documents only that holding repeats, and speeds up after a
    /// while, which is not modelled here.
    public static let stepperAutorepeatDelay: TimeInterval = 0.5
    public static let stepperAutorepeatInterval: TimeInterval = 0.1

    // MARK: Progress views

    /// A progress bar's thickness: 4 points, with round ends, since iOS 14
    /// (2 before; chosen from the iOS 17 look).
    public static let progressViewHeight: CGFloat = 4

    // MARK: Activity indicators

    /// The spinner's size by style: 20 points for `.medium`, 37 for
    /// `.large` (UIKit sizes the view to these, as its header says).
    public static let activityIndicatorMediumSide: CGFloat = 20
    public static let activityIndicatorLargeSide: CGFloat = 37
    /// Eight spokes since iOS 13 (twelve before).
    public static let activityIndicatorSpokeCount = 8
    /// How long each eighth of a turn shows: a turn a second (chosen to
    /// match iOS's pace).
    public static let activityIndicatorStepDuration: TimeInterval = 1.0 / 8
    /// Where a spoke starts and ends, and its thickness, as fractions of
    /// the spinner's side (chosen to match iOS 13 to 17's spinner).
    public static let activityIndicatorSpokeInnerRadius: CGFloat = 0.22
    public static let activityIndicatorSpokeOuterRadius: CGFloat = 0.44
    public static let activityIndicatorSpokeWidth: CGFloat = 0.1
    /// A spoke's opacity `behind` steps after the darkest (chosen: from
    /// full down by a tenth a step).
    public static func activityIndicatorSpokeAlpha(behind: Int) -> CGFloat {
        1 - 0.1 * CGFloat(behind)
    }

    // MARK: Page controls

    /// A page control's dots and their spacing, its height and the room on
    /// either side (iOS 14 and later: 8-point dots, 26 points high; chosen
    /// from the iOS 17 look).
    public static let pageControlDotDiameter: CGFloat = 8
    public static let pageControlDotSpacing: CGFloat = 9
    public static let pageControlHeight: CGFloat = 26
    public static let pageControlHorizontalPadding: CGFloat = 12

    // MARK: Alerts and action sheets

    /// An alert's width: 270 points on every iPhone (UIKit's long-standing
    /// alert width).
    public static let alertWidth: CGFloat = 270
    /// The cards' corner radius (iOS 13 and later, about 14 in screenshots).
    public static let alertCornerRadius: CGFloat = 14
    /// A button's height in an alert and in an action sheet (44 and 57
    /// points in iOS 13 to 17's layouts).
    public static let alertButtonHeight: CGFloat = 44
    public static let alertSheetButtonHeight: CGFloat = 57
    /// Button titles: 17 points in an alert, 20 in an action sheet.
    public static let alertButtonFontSize: CGFloat = 17
    public static let alertSheetButtonFontSize: CGFloat = 20
    /// Room around the title and message, and between them (chosen).
    public static let alertTextPadding: CGFloat = 16
    public static let alertTextSpacing: CGFloat = 4
    /// An action sheet's margins: 8 points at the sides, and at the bottom
    /// 8 above the home indicator's 34-point safe area; 8 points between
    /// the actions and the cancel card.
    public static let alertSheetMargin: CGFloat = 8
    public static let alertSheetBottomMargin: CGFloat = 42
    public static let alertSheetCancelGap: CGFloat = 8
    /// What covers the screen behind an alert: black at 20 % (UIKit's
    /// dimming view).
    public static let alertDimmingColor = UIColor(white: 0, alpha: 0.2)
    /// The cards: iOS blurs a light material; here an opaque light grey
    /// (``UIColor/systemGray6``), the cancel card white.
    public static let alertBackgroundColor = UIColor.systemGray6
    public static let alertSheetCancelBackgroundColor = UIColor.white
    /// A pressed button's background (chosen: ``UIColor/systemFill``).
    public static let alertButtonHighlightColor = UIColor.systemFill

    // MARK: Tab bars

    /// A tab bar's height above the bottom of the safe area (49 points on
    /// every iPhone since iOS 7); the bar grows by that inset below, to 83
    /// points over an iPhone X's 34-point home indicator area.
    public static let tabBarHeight: CGFloat = 49
    /// The bar's background: iOS blurs a light material; here opaque
    /// #F9F9F9 (chosen to match its look over white).
    public static let tabBarBackgroundColor = UIColor(rgb: 0xF9F9F9)
    /// An item's image box, its distance from the top, the gap to the
    /// title and the title's size (10 points, medium; the rest chosen to
    /// match iOS 17's layout).
    public static let tabBarImageSide: CGFloat = 25
    public static let tabBarImageTop: CGFloat = 7
    public static let tabBarTitleGap: CGFloat = 2
    public static let tabBarTitleFontSize: CGFloat = 10

    // MARK: Refresh controls

    /// The room a refresh control takes above the content while refreshing
    /// (chosen: about the height iOS 17 gives it).
    public static let refreshControlHeight: CGFloat = 60
    /// How far beyond the top the content must be pulled to start a
    /// refresh (chosen to match iOS's feel).
    public static let refreshControlTriggerDistance: CGFloat = 80
}
