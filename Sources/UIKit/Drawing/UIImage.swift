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

    /// Draws the image into `rect`: scaled whole or, for a resizable image
    /// drawn larger or smaller, in nine parts: the corners at their size,
    /// the edges and the middle tiled or stretched (``ResizingMode``).
    public func draw(in rect: CGRect, blendMode: CGBlendMode, alpha: CGFloat) {
        guard let cgImage, let context = UIGraphicsGetCurrentContext() else { return }
        context.saveGState()
        context.setBlendMode(blendMode)
        context.setAlpha(alpha)
        if isResizable {
            drawNineParts(of: cgImage, in: rect, context: context)
        } else {
            Self.draw(cgImage, in: rect, context: context)
        }
        context.restoreGState()
    }

    /// Draws `image` scaled into `rect`, right way up in UIKit's flipped
    /// coordinates.
    private static func draw(_ image: CGImage, in rect: CGRect, context: CGContext) {
        context.saveGState()
        // Core Graphics draws an image's first row at the top of y-up space;
        // flip about the rectangle so it lands at the top of UIKit's.
        context.translateBy(x: rect.minX, y: rect.maxY)
        context.scaleBy(x: 1, y: -1)
        context.draw(image, in: CGRect(origin: .zero, size: rect.size))
        context.restoreGState()
    }

    /// The most tiles one part of a resizable image is drawn with; past it
    /// (a sliver of a middle tiled over a huge area) the part is stretched.
    static let maximumTilesPerPart = 4096

    /// Draws the nine parts ``capInsets`` cut the image into. Caps that do
    /// not fit the image, or the rectangle, are shrunk in proportion.
    private func drawNineParts(of image: CGImage, in rect: CGRect, context: CGContext) {
        func fit(_ a: CGFloat, _ b: CGFloat, within limit: CGFloat) -> (CGFloat, CGFloat) {
            let sum = a + b
            guard sum > limit, sum > 0 else { return (a, b) }
            return (a * limit / sum, b * limit / sum)
        }
        let (left, right) = fit(capInsets.left, capInsets.right, within: size.width)
        let (top, bottom) = fit(capInsets.top, capInsets.bottom, within: size.height)
        let (targetLeft, targetRight) = fit(left, right, within: rect.width)
        let (targetTop, targetBottom) = fit(top, bottom, within: rect.height)
        let sourceX = [0, left, size.width - right, size.width], sourceY = [0, top, size.height - bottom, size.height]
        let targetX = [rect.minX, rect.minX + targetLeft, rect.maxX - targetRight, rect.maxX]
        let targetY = [rect.minY, rect.minY + targetTop, rect.maxY - targetBottom, rect.maxY]
        for row in 0..<3 {
            for column in 0..<3 {
                let source = CGRect(x: sourceX[column], y: sourceY[row],
                                    width: sourceX[column + 1] - sourceX[column], height: sourceY[row + 1] - sourceY[row])
                let target = CGRect(x: targetX[column], y: targetY[row],
                                    width: targetX[column + 1] - targetX[column], height: targetY[row + 1] - targetY[row])
                guard source.width > 0, source.height > 0, target.width > 0, target.height > 0,
                      let part = image.cropping(to: CGRect(x: source.minX * scale, y: source.minY * scale,
                                                           width: source.width * scale, height: source.height * scale))
                else { continue }
                // A middle column repeats across, a middle row down; a
                // corner is drawn once.
                let tile = CGSize(width: column == 1 && resizingMode == .tile ? source.width : target.width,
                                  height: row == 1 && resizingMode == .tile ? source.height : target.height)
                let across = Int((target.width / tile.width).rounded(.up)), down = Int((target.height / tile.height).rounded(.up))
                guard across * down > 1, across * down <= Self.maximumTilesPerPart else {
                    Self.draw(part, in: target, context: context)
                    continue
                }
                context.saveGState()
                context.clip(to: target)
                for y in 0..<down {
                    for x in 0..<across {
                        let origin = CGPoint(x: target.minX + CGFloat(x) * tile.width, y: target.minY + CGFloat(y) * tile.height)
                        Self.draw(part, in: CGRect(origin: origin, size: tile), context: context)
                    }
                }
                context.restoreGState()
            }
        }
    }

    /// The image drawn into a bitmap of `size` points at `scale`, as
    /// ``draw(in:)`` draws it (for a resizable image, in nine parts); nil
    /// for an image without pixels or a size with no pixels or too many.
    func drawnResized(to size: CGSize, scale: CGFloat) -> UIImage? {
        guard let cgImage, size.width > 0, size.height > 0 else { return nil }
        let width = Int((size.width * scale).rounded(.up)), height = Int((size.height * scale).rounded(.up))
        guard CGImage.isAllocatable(width: width, height: height),
              let context = CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
                                      space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
        else { return nil }
        // UIKit's space: y down, in points.
        context.concatenate(CGAffineTransform(a: scale, b: 0, c: 0, d: -scale, tx: 0, ty: CGFloat(height)))
        let rect = CGRect(origin: .zero, size: size)
        if isResizable { drawNineParts(of: cgImage, in: rect, context: context) } else { Self.draw(cgImage, in: rect, context: context) }
        guard let pixels = context.makeImage() else { return nil }
        return UIImage(pixels: pixels, size: size, scale: scale, renderingMode: renderingMode, isSymbolImage: isSymbolImage)
    }

    /// Draws the image at its size in points with its top-left at `point`.
    public func draw(at point: CGPoint) {
        draw(in: CGRect(origin: point, size: size))
    }
}

extension UIImage {
    /// The image's shape filled with `color`: every pixel takes the colour
    /// at the image's own opacity, as a template image is drawn by a system
    /// button or a tinted image view. The result is drawn as it is
    /// (``RenderingMode/alwaysOriginal``), keeping caps; an image without
    /// pixels is returned as it is.
    public func withTintColor(_ color: UIColor) -> UIImage {
        withTintColor(color, renderingMode: .alwaysOriginal)
    }

    /// The image's shape filled with `color`, drawn as `renderingMode` says.
    public func withTintColor(_ color: UIColor, renderingMode: RenderingMode) -> UIImage {
        redrawn(renderingMode: renderingMode) { context, rect, image in
            context.draw(image, in: rect)
            context.setBlendMode(.sourceIn)
            context.setFillColor(color.cgColor)
            context.fill(rect)
        }
    }

    /// This image with its pixels redrawn by `draw` (given a context of
    /// the same pixel size, the whole rectangle and the pixels), keeping
    /// caps and size; an image without pixels is returned as it is.
    func redrawn(renderingMode: RenderingMode? = nil, _ draw: (CGContext, CGRect, CGImage) -> Void) -> UIImage {
        guard let image = cgImage,
              let context = CGContext(data: nil, width: image.width, height: image.height, bitsPerComponent: 8, bytesPerRow: 0,
                                      space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
        else { return self }
        draw(context, CGRect(x: 0, y: 0, width: image.width, height: image.height), image)
        guard let result = context.makeImage() else { return self }
        return replacing(pixels: result, renderingMode: renderingMode)
    }
}
