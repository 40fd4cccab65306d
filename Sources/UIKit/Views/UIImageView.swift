#if canImport(Glibc)
import Glibc
#endif
/// An image: its size in points, its scale, and its pixels when it has
/// any (`cgImage`).
///
/// It is an `NSObject`, as in UIKit. Two images are equal (`==`,
/// `isEqual(_:)`) when they have the same size and scale and the same
/// pixels, which is what Apple documents `isEqual(_:)` to compare ("the only
/// reliable way to determine whether two images contain the same image
/// data"). It never changes once made, so it is safe to share between threads.
public final class UIImage: NSObject, @unchecked Sendable {
    public let size: CGSize
    public let scale: CGFloat
    public let cgImage: CGImage?

    /// An image of `size` points with no pixels.
    public init(size: CGSize, scale: CGFloat = 1) {
        self.size = size
        self.scale = scale
        cgImage = nil
        super.init()
    }

    /// An image showing `cgImage`, `scale` pixels per point.
    public init(cgImage: CGImage, scale: CGFloat = 1) {
        let scale = scale.isFinite && scale > 0 ? scale : 1
        self.cgImage = cgImage
        self.scale = scale
        size = CGSize(width: CGFloat(cgImage.width) / scale, height: CGFloat(cgImage.height) / scale)
        super.init()
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
        let shown = isHighlighted ? (highlightedImage ?? image) : image
        layer.contents = shown?.cgImage
        layer.contentsScale = shown?.scale ?? 1
    }

    public convenience init(image: UIImage?) {
        self.init(frame: CGRect(origin: .zero, size: image?.size ?? .zero))
        self.image = image
        showImage()
    }

    override class var interactionEnabledByDefault: Bool { false }
}
