import Synchronization

/// The display. Its bounds are the coordinate space windows are placed in,
/// in points; its scale is how many pixels make a point.
@preconcurrency @MainActor
public final class UIScreen {
    /// A screen of an iPhone 14's size (390×844 points at 3 pixels per
    /// point), unless the application changes it.
    public static let main = UIScreen(bounds: CGRect(x: 0, y: 0, width: 390, height: 844), scale: 3)

    /// The screen's extent in points. A bounds that is not finite or has a
    /// negative size is refused.
    public var bounds: CGRect {
        didSet { if !bounds.isFinite || bounds.width < 0 || bounds.height < 0 { bounds = oldValue } }
    }

    /// Pixels per point. Values that are not finite and positive are refused.
    public var scale: CGFloat {
        didSet {
            if !(scale.isFinite && scale > 0) { scale = oldValue }
            if self === UIScreen.main { Self.mainScaleStore.withLock { $0 = scale } }
        }
    }

    /// The main screen's scale, readable from any thread: what an image
    /// renderer's format made off the main thread takes by default.
    nonisolated static var mainScale: CGFloat { mainScaleStore.withLock { $0 } }
    private nonisolated static let mainScaleStore = Mutex<CGFloat>(3)

    /// The scale frames are rendered at: the same as ``scale`` here.
    public var nativeScale: CGFloat { scale }

    /// The screen's extent in pixels.
    public var nativeBounds: CGRect {
        CGRect(x: 0, y: 0, width: bounds.width * scale, height: bounds.height * scale)
    }

    /// How far the screen's rounded corners, sensor housing and home
    /// indicator reach in from each edge, in points: the safe area of a
    /// window that covers the screen. UIKit keeps this to itself (apps read
    /// a window's or a view's `safeAreaInsets`); here the event server's
    /// welcome sets it (`openuikit-server --safe-area`, or the known
    /// insets of the iPhone of the screen's size), and a test may set it.
    /// None by default. Insets that are not finite or are negative are refused.
    public var safeAreaInsets = UIEdgeInsets.zero {
        didSet {
            let edges = [safeAreaInsets.top, safeAreaInsets.left, safeAreaInsets.bottom, safeAreaInsets.right]
            guard !edges.anySatisfy({ !($0.isFinite && $0 >= 0) }) else { return safeAreaInsets = oldValue }
            if safeAreaInsets != oldValue { safeAreaInsetsDidChange() }
        }
    }

    /// The refresh rate of the display: 60 Hz, or 120 Hz for a ProMotion
    /// display. The display clock ticks at this rate; other values are refused.
    public var maximumFramesPerSecond: Int = 60 {
        didSet { if ![60, 120].contains(maximumFramesPerSecond) { maximumFramesPerSecond = oldValue } }
    }

    public init(bounds: CGRect, scale: CGFloat) {
        self.bounds = bounds
        self.scale = scale
    }
}
