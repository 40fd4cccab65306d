// UIImage's files and drawing: PNG and JPEG data and files, encoding,
// drawing into the current context.
extension UIImage {
    /// How an image's pixels are turned; images here are always `.up`.
    public enum Orientation: Int, Sendable {
        case up = 0, down, left, right, upMirrored, downMirrored, leftMirrored, rightMirrored
    }

    public var imageOrientation: Orientation { .up }

    /// An image of `cgImage` at `scale`; the orientation is accepted and
    /// ignored (every image here is drawn `.up`).
    public convenience init(cgImage: CGImage, scale: CGFloat, orientation: Orientation) {
        self.init(cgImage: cgImage, scale: scale)
    }

    /// The image in PNG or JPEG data at scale 1; nil for anything else,
    /// corrupt or truncated data, or a size too large to allocate.
    public convenience init?(data: Data) {
        self.init(data: data, scale: 1)
    }

    public convenience init?(data: Data, scale: CGFloat) {
        guard let image = try? CGImage.decode(data) else { return nil }
        self.init(cgImage: image, scale: scale, orientation: .up)
    }

    /// The image in a PNG or JPEG file; a name ending in `@2x` or `@3x`
    /// (before the extension) gives that scale, as in UIKit.
    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let scale: CGFloat = name.hasSuffix("@3x") ? 3 : name.hasSuffix("@2x") ? 2 : 1
        self.init(data: data, scale: scale)
    }

    /// The image as PNG data; nil for an image without pixels.
    public func pngData() -> Data? {
        try? cgImage?.pngData()
    }

    /// The image as JPEG data at `compressionQuality` (0…1); nil for an
    /// image without pixels.
    public func jpegData(compressionQuality: CGFloat) -> Data? {
        try? cgImage?.jpegData(compressionQuality: compressionQuality)
    }

    /// Draws the image scaled into `rect` of the current context, right
    /// way up in UIKit's flipped coordinates.
    public func draw(in rect: CGRect) {
        draw(in: rect, blendMode: .normal, alpha: 1)
    }

    public func draw(in rect: CGRect, blendMode: CGBlendMode, alpha: CGFloat) {
        guard let cgImage, let context = UIGraphicsGetCurrentContext() else { return }
        context.saveGState()
        context.setBlendMode(blendMode)
        context.setAlpha(alpha)
        // Core Graphics draws an image's first row at the top of y-up space;
        // flip about the rectangle so it lands at the top of UIKit's.
        context.translateBy(x: rect.minX, y: rect.maxY)
        context.scaleBy(x: 1, y: -1)
        context.draw(cgImage, in: CGRect(origin: .zero, size: rect.size))
        context.restoreGState()
    }

    /// Draws the image at its size in points with its top-left at `point`.
    public func draw(at point: CGPoint) {
        draw(in: CGRect(origin: point, size: size))
    }
}

extension UIImage {
    /// The image's shape filled with `color`: every pixel takes the colour
    /// at the image's own opacity, as a template image is drawn by a system
    /// button or a tinted image view. An image without pixels is returned
    /// as it is.
    public func withTintColor(_ color: UIColor) -> UIImage {
        guard let image = cgImage,
              let context = CGContext(data: nil, width: image.width, height: image.height, bitsPerComponent: 8, bytesPerRow: 0,
                                      space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
        else { return self }
        let rect = CGRect(x: 0, y: 0, width: image.width, height: image.height)
        context.draw(image, in: rect)
        context.setBlendMode(.sourceIn)
        context.setFillColor(color.cgColor)
        context.fill(rect)
        guard let tinted = context.makeImage() else { return self }
        return UIImage(cgImage: tinted, scale: scale)
    }
}
