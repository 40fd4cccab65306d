import Foundation

/// Records a drawing problem in the application's diagnostics, from any thread.
func reportInvalidDrawing(_ message: String) {
    reportFromAnyThread(Diagnostic(.invalidDrawing, message))
}

/// How an image renderer's bitmaps are made. Renderers, their formats and
/// contexts may be used from any thread, as UIKit documents; each thread
/// draws on its own context stack.
open class UIGraphicsImageRendererFormat {
    /// Pixels a point; the screen's by default.
    open var scale: CGFloat
    /// Whether the images have no transparency (their pixels start opaque black… here, as in
    /// UIKit, an opaque format only promises the caller fills every pixel).
    open var opaque = false
    /// Whether colours beyond sRGB are kept; always sRGB here.
    open var preferredRange: Range = .standard

    public enum Range: Int, Sendable { case automatic = 0, `default`, standard, extended }

    public init() { scale = UIScreen.mainScale }

    /// The format of the main screen.
    open class func `default`() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }

    open class func preferred() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }
}

/// What `image(actions:)` hands its closure: the context, and a few shortcuts.
open class UIGraphicsImageRendererContext {
    /// The bitmap context, in points with y down, as in UIKit.
    public let cgContext: CGContext
    public let format: UIGraphicsImageRendererFormat

    init(cgContext: CGContext, format: UIGraphicsImageRendererFormat) {
        self.cgContext = cgContext
        self.format = format
    }

    /// The picture so far.
    open var currentImage: UIImage {
        UIImage(cgImage: cgContext.makeImage()!, scale: format.scale, orientation: .up)
    }

    /// Fills `rect` with the current fill colour.
    open func fill(_ rect: CGRect) { cgContext.fill(rect) }

    open func fill(_ rect: CGRect, blendMode: CGBlendMode) {
        cgContext.saveGState(); cgContext.setBlendMode(blendMode); cgContext.fill(rect); cgContext.restoreGState()
    }

    /// Strokes a one-point line just inside `rect`'s edge, as UIKit's
    /// `UIRectFrame` does.
    open func stroke(_ rect: CGRect) {
        cgContext.stroke(rect.insetBy(dx: 0.5, dy: 0.5), width: 1)
    }

    open func stroke(_ rect: CGRect, blendMode: CGBlendMode) {
        cgContext.saveGState(); cgContext.setBlendMode(blendMode); stroke(rect); cgContext.restoreGState()
    }

    open func clip(to rect: CGRect) { cgContext.clip(to: rect) }
}

/// Draws into bitmaps of a given size in points and hands back images or
/// encoded data, as UIKit's.
open class UIGraphicsImageRenderer {
    public let format: UIGraphicsImageRendererFormat
    /// The bounds images are drawn in, in points.
    public let bounds: CGRect

    public init(size: CGSize, format: UIGraphicsImageRendererFormat) {
        bounds = CGRect(origin: .zero, size: size)
        self.format = format
    }

    public convenience init(size: CGSize) {
        self.init(size: size, format: .default())
    }

    public convenience init(bounds: CGRect, format: UIGraphicsImageRendererFormat = .default()) {
        self.init(size: bounds.size, format: format)
    }

    /// A flipped bitmap context of `size` points at the format's scale, or
    /// nil when the size is empty, not finite or too large to allocate.
    static func makeContext(size: CGSize, format: UIGraphicsImageRendererFormat) -> CGContext? {
        let scale = format.scale > 0 && format.scale.isFinite ? format.scale : 1
        let w = (size.width * scale).rounded(.up), h = (size.height * scale).rounded(.up)
        guard w.isFinite, h.isFinite, w >= 1, h >= 1, w <= CGFloat(CGBitmapMaximumDimension), h <= CGFloat(CGBitmapMaximumDimension),
              let context = CGContext(data: nil, width: Int(w), height: Int(h), bitsPerComponent: 8, bytesPerRow: 0,
                                      space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
        else { return nil }
        context.translateBy(x: 0, y: h)
        context.scaleBy(x: scale, y: -scale)
        return context
    }

    /// Runs `actions` with a fresh context made current, and returns the
    /// picture. A size that cannot be drawn (empty, not finite, beyond
    /// `CGBitmapMaximumDimension` pixels) gives an empty image without
    /// running `actions`, and is recorded in the application's diagnostics.
    open func image(actions: (UIGraphicsImageRendererContext) -> Void) -> UIImage {
        guard let context = render(actions) else { return UIImage(size: .zero, scale: format.scale) }
        return UIImage(cgImage: context.makeImage()!, scale: format.scale, orientation: .up)
    }

    /// The picture as PNG data (empty for a size that cannot be drawn).
    open func pngData(actions: (UIGraphicsImageRendererContext) -> Void) -> Data {
        guard let context = render(actions), let data = try? context.makeImage()!.pngData() else { return Data() }
        return data
    }

    /// The picture as JPEG data at `compressionQuality` (0…1).
    open func jpegData(withCompressionQuality compressionQuality: CGFloat, actions: (UIGraphicsImageRendererContext) -> Void) -> Data {
        guard let context = render(actions), let data = try? context.makeImage()!.jpegData(compressionQuality: compressionQuality) else { return Data() }
        return data
    }

    private func render(_ actions: (UIGraphicsImageRendererContext) -> Void) -> CGContext? {
        guard let context = Self.makeContext(size: bounds.size, format: format) else {
            reportInvalidDrawing("UIGraphicsImageRenderer: cannot draw a \(bounds.size) image at scale \(format.scale)")
            return nil
        }
        if format.opaque {
            context.setFillColor(CGColor.black)
            context.fill(bounds)
        }
        let rendererContext = UIGraphicsImageRendererContext(cgContext: context, format: format)
        UIGraphicsPushContext(context)
        context.saveGState()
        actions(rendererContext)
        context.restoreGState()
        UIGraphicsPopContext()
        return context
    }
}
