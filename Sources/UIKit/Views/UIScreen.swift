/// The display. Its bounds are the coordinate space windows are placed in.
@preconcurrency @MainActor
public final class UIScreen {
    /// A screen of an iPhone 15's size in points, unless the application changes it.
    public static let main = UIScreen(bounds: CGRect(x: 0, y: 0, width: 393, height: 852), scale: 3)

    public var bounds: CGRect
    public var scale: CGFloat

    public init(bounds: CGRect, scale: CGFloat) {
        self.bounds = bounds
        self.scale = scale
    }
}
