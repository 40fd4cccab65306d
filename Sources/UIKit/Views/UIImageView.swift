/// An image: its size in points, its scale, and its pixels when it has
/// any (`cgImage`).
public final class UIImage: Sendable {
    public let size: CGSize
    public let scale: CGFloat
    public let cgImage: CGImage?

    /// An image of `size` points with no pixels.
    public init(size: CGSize, scale: CGFloat = 1) {
        self.size = size
        self.scale = scale
        cgImage = nil
    }

    /// An image showing `cgImage`, `scale` pixels per point.
    public init(cgImage: CGImage, scale: CGFloat = 1) {
        let scale = scale.isFinite && scale > 0 ? scale : 1
        self.cgImage = cgImage
        self.scale = scale
        size = CGSize(width: CGFloat(cgImage.width) / scale, height: CGFloat(cgImage.height) / scale)
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
