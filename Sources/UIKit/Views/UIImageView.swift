/// An image, known here by its size in points. Decoding and drawing image
/// files is not part of this build.
public final class UIImage: Sendable {
    public let size: CGSize
    public let scale: CGFloat

    public init(size: CGSize, scale: CGFloat = 1) {
        self.size = size
        self.scale = scale
    }
}

/// A view that shows an image. Unlike most views it ignores touches by
/// default (`isUserInteractionEnabled` is false), so its subviews cannot be
/// hit either until that is turned on.
@preconcurrency @MainActor
open class UIImageView: UIView {
    open var image: UIImage?
    open var highlightedImage: UIImage?
    open var isHighlighted = false

    public convenience init(image: UIImage?) {
        self.init(frame: CGRect(origin: .zero, size: image?.size ?? .zero))
        self.image = image
    }

    override class var interactionEnabledByDefault: Bool { false }
}

/// A view that shows text. Like `UIImageView` it ignores touches by default.
@preconcurrency @MainActor
open class UILabel: UIView {
    open var text: String?
    open var textColor: UIColor = .black
    open var numberOfLines = 1
    /// The colour of the text's shadow; nil (the default) draws none.
    open var shadowColor: UIColor?
    /// Where the shadow falls from the text. Default (0, -1): one point up, as in UIKit.
    open var shadowOffset = CGSize(width: 0, height: -1)

    override class var interactionEnabledByDefault: Bool { false }
}
