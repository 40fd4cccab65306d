#if canImport(Glibc)
import Glibc
#endif
/// An image: its size in points, its scale, its pixels when it has any
/// (`cgImage`), and how it is drawn: in its own colours or as a template
/// in a tint (``renderingMode``), stretched whole or in nine parts
/// (``capInsets``).
///
/// It is an `NSObject`, as in UIKit. Two images are equal (`==`,
/// `isEqual(_:)`) when they have the same size and scale and the same
/// pixels, which is what Apple documents `isEqual(_:)` to compare ("the only
/// reliable way to determine whether two images contain the same image
/// data"). It never changes once made, so it is safe to share between threads.
public final class UIImage: NSObject, @unchecked Sendable {
    /// How an image is drawn.
    public enum RenderingMode: Int, Sendable {
        /// As the place it is drawn decides: a template in a system
        /// button, a tab bar or a navigation bar; its own colours elsewhere.
        case automatic = 0
        /// Always in its own colours.
        case alwaysOriginal
        /// Always as a template: its shape (its opacity) in the tint.
        case alwaysTemplate
    }

    /// How the middle parts of a resizable image fill a larger area.
    public enum ResizingMode: Int, Sendable {
        /// Repeated at their own size (UIKit's default).
        case tile = 0
        /// Scaled to fit.
        case stretch
    }

    public let size: CGSize
    public let scale: CGFloat
    public let cgImage: CGImage?
    public let renderingMode: RenderingMode
    /// The parts kept at their size when a resizable image is drawn larger;
    /// zero for an image that is not resizable.
    public let capInsets: UIEdgeInsets
    public let resizingMode: ResizingMode
    /// Whether it came from ``init(systemName:)``.
    public let isSymbolImage: Bool
    /// Made by ``resizableImage(withCapInsets:resizingMode:)``: drawn larger
    /// than its size, it keeps its caps and fills the rest by
    /// ``resizingMode`` (even with zero insets, when the whole image is the
    /// middle part).
    let isResizable: Bool

    init(pixels: CGImage?, size: CGSize, scale: CGFloat, renderingMode: RenderingMode = .automatic,
         capInsets: UIEdgeInsets = .zero, resizingMode: ResizingMode = .tile, isResizable: Bool = false,
         isSymbolImage: Bool = false) {
        cgImage = pixels
        self.size = size
        self.scale = scale
        self.renderingMode = renderingMode
        self.capInsets = capInsets
        self.resizingMode = resizingMode
        self.isResizable = isResizable
        self.isSymbolImage = isSymbolImage
        super.init()
    }

    /// An empty image: no pixels, zero size.
    public override convenience init() {
        self.init(size: .zero)
    }

    /// An image of `size` points with no pixels.
    public convenience init(size: CGSize, scale: CGFloat = 1) {
        self.init(pixels: nil, size: size, scale: scale)
    }

    /// An image showing `cgImage`, `scale` pixels per point.
    public convenience init(cgImage: CGImage, scale: CGFloat = 1) {
        self.init(cgImage: cgImage, scale: scale, renderingMode: .automatic)
    }

    convenience init(cgImage: CGImage, scale: CGFloat, renderingMode: RenderingMode, isSymbolImage: Bool = false) {
        let scale = scale.isFinite && scale > 0 ? scale : 1
        self.init(pixels: cgImage, size: CGSize(width: CGFloat(cgImage.width) / scale, height: CGFloat(cgImage.height) / scale),
                  scale: scale, renderingMode: renderingMode, isSymbolImage: isSymbolImage)
    }

    /// This image with other pixels (of the same size in points) and,
    /// optionally, another rendering mode; everything else kept.
    func replacing(pixels: CGImage?, renderingMode: RenderingMode? = nil) -> UIImage {
        UIImage(pixels: pixels, size: size, scale: scale, renderingMode: renderingMode ?? self.renderingMode,
                capInsets: capInsets, resizingMode: resizingMode, isResizable: isResizable, isSymbolImage: isSymbolImage)
    }

    /// This image, drawn as `renderingMode` says.
    public func withRenderingMode(_ renderingMode: RenderingMode) -> UIImage {
        replacing(pixels: cgImage, renderingMode: renderingMode)
    }

    /// This image drawn at its size in the corners `capInsets` mark off,
    /// its edges and middle tiled (UIKit's default) when drawn larger.
    public func resizableImage(withCapInsets capInsets: UIEdgeInsets) -> UIImage {
        resizableImage(withCapInsets: capInsets, resizingMode: .tile)
    }

    /// This image drawn at its size in the corners `capInsets` mark off,
    /// its edges and middle tiled or stretched when drawn larger. Insets
    /// that are negative or not finite count as zero.
    public func resizableImage(withCapInsets capInsets: UIEdgeInsets, resizingMode: ResizingMode) -> UIImage {
        func clean(_ value: CGFloat) -> CGFloat { value.isFinite ? max(value, 0) : 0 }
        let insets = UIEdgeInsets(top: clean(capInsets.top), left: clean(capInsets.left),
                                  bottom: clean(capInsets.bottom), right: clean(capInsets.right))
        return UIImage(pixels: cgImage, size: size, scale: scale, renderingMode: renderingMode, capInsets: insets,
                       resizingMode: resizingMode, isResizable: true, isSymbolImage: isSymbolImage)
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UIImage else { return false }
        if other === self { return true }
        guard other.size == size, other.scale == scale else { return false }
        switch (cgImage, other.cgImage) {
        case (nil, nil): return true
        case let (mine?, theirs?): return mine === theirs || Self.samePixels(mine.pixels, theirs.pixels)
        default: return false
        }
    }

    /// From the size and scale alone: equal images have equal sizes and
    /// scales, and hashing every pixel would make hashing cost as much as
    /// the image is large.
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(size.width)
        hasher.combine(size.height)
        hasher.combine(scale)
        return hasher.finalize()
    }

    public override var description: String {
        "UIImage(\(size.width)×\(size.height) pt @\(scale)x\(cgImage == nil ? ", no pixels" : ""))"
    }

    private static func samePixels(_ a: PixelBuffer, _ b: PixelBuffer) -> Bool {
        guard a.width == b.width, a.height == b.height, a.format == b.format else { return false }
        let rowBytes = a.width * 4
        for row in 0..<a.height where memcmp(a.base + row * a.bytesPerRow, b.base + row * b.bytesPerRow, rowBytes) != 0 {
            return false
        }
        return true
    }
}

/// A view that shows an image. Unlike most views it ignores touches by
/// default (`isUserInteractionEnabled` is false), so its subviews cannot be
/// hit either until that is turned on.
///
/// A template image (``UIImage/RenderingMode/alwaysTemplate``, which
/// symbol images are) is drawn in the view's ``UIView/tintColor`` and follows it.
/// A resizable image (``UIImage/resizableImage(withCapInsets:resizingMode:)``)
/// fills the bounds in nine parts, its corners at their size.
@preconcurrency @MainActor
open class UIImageView: UIView {
    /// Shown as the layer's contents, placed by `contentMode`.
    open var image: UIImage? {
        didSet { showImage() }
    }
    open var highlightedImage: UIImage? {
        didSet { showImage() }
    }
    open var isHighlighted = false {
        didSet { showImage() }
    }

    private func showImage() {
        guard var shown = isHighlighted ? (highlightedImage ?? image) : image else {
            layer.contents = nil
            layer.contentsScale = 1
            return
        }
        if shown.renderingMode == .alwaysTemplate { shown = shown.withTintColor(tintColor, renderingMode: .alwaysTemplate) }
        if shown.isResizable, let filled = shown.drawnResized(to: bounds.size, scale: UIScreen.main.scale) { shown = filled }
        layer.contents = shown.cgImage
        layer.contentsScale = shown.scale
    }

    public convenience init(image: UIImage?) {
        self.init(frame: CGRect(origin: .zero, size: image?.size ?? .zero))
        self.image = image
        showImage()
    }

    open override func tintColorDidChange() {
        super.tintColorDidChange()
        if image?.renderingMode == .alwaysTemplate || highlightedImage?.renderingMode == .alwaysTemplate { showImage() }
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        if image?.isResizable == true || highlightedImage?.isResizable == true { showImage() }
    }

    override class var interactionEnabledByDefault: Bool { false }
}
