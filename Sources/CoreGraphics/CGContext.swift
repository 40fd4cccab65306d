/// A drawing destination: a bitmap, its graphics state stack and its
/// current path, as Core Graphics' bitmap contexts.
///
/// Coordinates are Core Graphics': the origin is at the bottom left of the
/// bitmap, y up, one unit a pixel, until the current transform (`ctm`) says
/// otherwise. (UIKit's contexts flip this so that y goes down; see
/// `UIGraphicsImageRenderer`.) Memory holds rows top to bottom, so the
/// bottom row of the picture (y from 0 to 1) is the last row in `data`.
/// The pixel layouts are described in `PixelFormat`.
public final class CGContext {
    public let width: Int
    public let height: Int
    public let bytesPerRow: Int
    public var bitsPerComponent: Int { 8 }
    public var bitsPerPixel: Int { 32 }
    public let colorSpace: CGColorSpace?
    public let bitmapInfo: CGBitmapInfo
    public var alphaInfo: CGImageAlphaInfo { bitmapInfo.alphaInfo ?? .premultipliedLast }

    /// The bitmap's first byte: the caller's memory, or memory the context
    /// allocated (zeroed, transparent) and frees with itself.
    public var data: UnsafeMutableRawPointer? { pixels.base }

    package let pixels: PixelBuffer
    private let ownsMemory: Bool

    var state: GraphicsState
    private var savedStates: [GraphicsState] = []
    /// The current path, in memory coordinates: Core Graphics transforms
    /// points by the CTM as they are added.
    var devicePath = CGMutablePath()
    /// The sink the context's text is drawn through, kept from one run of
    /// glyphs to the next (CGContext+Glyphs.swift).
    var glyphSink: PaintSink?

    /// A bitmap context over `data` (`height` rows of `bytesPerRow` bytes),
    /// or over memory of its own when `data` is nil.
    ///
    /// Layouts: 8 bits per component, an RGB space, and
    /// `CGImageAlphaInfo.premultipliedLast` or `.premultipliedFirst` with
    /// the default, 32-bit big or 32-bit little byte order. `bytesPerRow`
    /// 0 means `width * 4`. Nil for another layout, a width or height that
    /// is zero, negative or above `CGBitmapMaximumDimension`, rows shorter
    /// than `width * 4`, or (for memory of its own) more than
    /// `CGBitmapMaximumByteCount` bytes.
    public init?(
        data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int,
        bytesPerRow: Int, space: CGColorSpace, bitmapInfo: UInt32
    ) {
        guard bitsPerComponent == 8, space.model == .rgb, let format = PixelFormat(bitmapInfo: bitmapInfo),
              width > 0, height > 0, width <= CGBitmapMaximumDimension, height <= CGBitmapMaximumDimension
        else { return nil }
        let rowBytes = bytesPerRow == 0 ? width * 4 : bytesPerRow
        guard rowBytes >= width * 4, !rowBytes.multipliedReportingOverflow(by: height).overflow else { return nil }
        let base: UnsafeMutableRawPointer
        if let data {
            base = data
            ownsMemory = false
        } else {
            guard rowBytes * height <= CGBitmapMaximumByteCount else { return nil }
            base = .allocate(byteCount: rowBytes * height, alignment: 16)
            base.initializeMemory(as: UInt8.self, repeating: 0, count: rowBytes * height)
            ownsMemory = true
        }
        self.width = width
        self.height = height
        self.bytesPerRow = rowBytes
        self.colorSpace = space
        self.bitmapInfo = format.bitmapInfo
        pixels = PixelBuffer(base: base, width: width, height: height, bytesPerRow: rowBytes, format: format)
        state = GraphicsState(clip: ClipRegion(bounds: pixels.bounds))
    }

    deinit {
        if ownsMemory { pixels.base.deallocate() }
    }

    /// Clears the bitmap to transparent and puts the context back as it was
    /// made: the identity transform, the whole bitmap as the clip, the
    /// default colours and line style, no saved state, no path. For a
    /// context kept to draw into again (UIKit keeps views' backing stores).
    package func clearForReuse() {
        if bytesPerRow == width * 4 {
            pixels.base.initializeMemory(as: UInt8.self, repeating: 0, count: bytesPerRow * height)
        } else {
            for y in 0..<height { pixels.row(y).initializeMemory(as: UInt8.self, repeating: 0, count: width * 4) }
        }
        state = GraphicsState(clip: ClipRegion(bounds: pixels.bounds))
        savedStates.removeAll(keepingCapacity: true)
        if !devicePath.isEmpty { devicePath = CGMutablePath() }
        allowsAntialiasing = true
    }

    /// An image of the bitmap as it is now; later drawing does not change it.
    public func makeImage() -> CGImage? {
        let source = pixels
        return CGImage(width: width, height: height) { target in
            for y in 0..<height {
                let from = source.row(y), to = target.row(y)
                if source.format == .rgba {
                    to.copyMemory(from: from, byteCount: width * 4)
                } else {
                    for x in 0..<width {
                        let word = from.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                        to.storeBytes(of: PixelFormat.rgba.word(source.format.color(word)), toByteOffset: x * 4, as: UInt32.self)
                    }
                }
            }
        }
    }

    // MARK: The graphics state

    /// Pushes a copy of the graphics state (transform, colours, alpha, clip,
    /// line style, blend mode, …); the path is not part of it.
    public func saveGState() {
        savedStates.append(state)
    }

    /// Pops the state pushed last; does nothing when none was pushed.
    public func restoreGState() {
        if let saved = savedStates.popLast() { state = saved }
    }

    /// The current transform, user space to Core Graphics' device space
    /// (pixels, origin at the bottom left, y up).
    public var ctm: CGAffineTransform { state.ctm }

    public var userSpaceToDeviceSpaceTransform: CGAffineTransform { state.ctm }

    /// User space to the bitmap's memory coordinates (pixels, origin at the
    /// top-left of row 0, y down): what the renderer uses.
    package var deviceTransform: CGAffineTransform {
        state.ctm.concatenating(CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height)))
    }

    public func concatenate(_ transform: CGAffineTransform) {
        state.ctm = transform.concatenating(state.ctm)
    }

    public func translateBy(x: CGFloat, y: CGFloat) {
        concatenate(CGAffineTransform(translationX: x, y: y))
    }

    public func scaleBy(x: CGFloat, y: CGFloat) {
        concatenate(CGAffineTransform(scaleX: x, y: y))
    }

    /// Rotates user space by `angle` radians (counter-clockwise in Core
    /// Graphics' y-up space, clockwise once UIKit has flipped it).
    public func rotate(by angle: CGFloat) {
        concatenate(CGAffineTransform(rotationAngle: angle))
    }

    public func setFillColor(_ color: CGColor) { state.fillColor = color }
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.fillColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }
    public func setFillColor(gray: CGFloat, alpha: CGFloat) { state.fillColor = CGColor(gray: gray, alpha: alpha) }

    public func setStrokeColor(_ color: CGColor) { state.strokeColor = color }
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.strokeColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }
    public func setStrokeColor(gray: CGFloat, alpha: CGFloat) { state.strokeColor = CGColor(gray: gray, alpha: alpha) }

    /// The alpha every drawing operation is multiplied by, clamped to 0…1.
    public func setAlpha(_ alpha: CGFloat) { state.alpha = alpha.isNaN ? 0 : min(max(alpha, 0), 1) }

    public func setBlendMode(_ mode: CGBlendMode) { state.blendMode = mode }

    /// Whether shapes get anti-aliased edges (default true); without, a
    /// pixel is either in (its centre inside the shape) or out.
    public func setShouldAntialias(_ shouldAntialias: Bool) { state.shouldAntialias = shouldAntialias }

    /// Core Graphics' second switch for anti-aliasing, not part of the
    /// graphics state: edges are smooth when both are on.
    public func setAllowsAntialiasing(_ allowsAntialiasing: Bool) { self.allowsAntialiasing = allowsAntialiasing }
    private var allowsAntialiasing = true

    var antialias: Bool { state.shouldAntialias && allowsAntialiasing }

    /// How images are sampled when drawn scaled or transformed.
    public var interpolationQuality: CGInterpolationQuality {
        get { state.interpolationQuality }
        set { state.interpolationQuality = newValue }
    }

    // MARK: Rectangles and clipping

    /// Fills `rect` with the fill colour.
    public func fill(_ rect: CGRect) {
        fill(rect, paint: .solid(PremultipliedColor(state.fillColor, alpha: state.alpha)), blendMode: state.blendMode)
    }

    public func fill(_ rects: [CGRect]) {
        for rect in rects { fill(rect) }
    }

    /// Makes `rect` transparent black (whatever the blend mode, alpha and
    /// colour), under the clip.
    public func clear(_ rect: CGRect) {
        fill(rect, paint: .solid(.clear), blendMode: .copy)
    }

    /// Narrows the clip to whole pixels of the bitmap's memory (origin at
    /// the top-left of row 0, y down), with no transform in between.
    package func clip(toPixels rect: PixelRect) {
        state.clip.bounds = state.clip.bounds.intersection(rect)
    }

    /// Narrows the clip to `rect` (the intersection with the current clip).
    public func clip(to rect: CGRect) {
        let transform = deviceTransform
        if transform.b == 0 && transform.c == 0 {
            state.clip = state.clip.intersecting(deviceRect: rect.applying(transform), antialias: antialias)
        } else {
            var outline = DeviceOutline(clippingTo: state.clip.bounds)
            outline.addPolygon(rect.standardized.corners.map { $0.applying(transform) })
            state.clip = state.clip.intersecting(&outline, fillRule: .winding, antialias: antialias)
        }
    }

    /// Narrows the clip to the union of `rects`.
    public func clip(to rects: [CGRect]) {
        let transform = deviceTransform
        var outline = DeviceOutline(clippingTo: state.clip.bounds)
        for rect in rects { outline.addPolygon(rect.standardized.corners.map { $0.applying(transform) }) }
        state.clip = state.clip.intersecting(&outline, fillRule: .winding, antialias: antialias)
    }

    /// The smallest rectangle, in user space, holding the clip.
    public var boundingBoxOfClipPath: CGRect {
        let b = state.clip.bounds
        guard !b.isEmpty, let inverse = deviceTransform.invertedIfPossible() else { return .null }
        return CGRect(x: b.x0, y: b.y0, width: b.width, height: b.height).applying(inverse)
    }

    func fill(_ rect: CGRect, paint: Paint, blendMode: CGBlendMode) {
        let transform = deviceTransform
        let sink = PaintSink(buffer: pixels, clip: state.clip, paint: paint, blendMode: blendMode, antialias: antialias)
        if transform.b == 0 && transform.c == 0 {
            forEachRectSpan(rect.applying(transform), within: state.clip.bounds) { y, x, length, coverage in
                sink.span(y: y, x: x, length: length, coverage: coverage)
            }
        } else {
            var outline = DeviceOutline(clippingTo: state.clip.bounds)
            outline.addPolygon(rect.standardized.corners.map { $0.applying(transform) })
            outline.render(fillRule: .winding, clip: state.clip.bounds, into: sink)
        }
    }
}

/// What `saveGState` saves and `restoreGState` brings back.
struct GraphicsState {
    var ctm = CGAffineTransform.identity
    var fillColor = CGColor.black
    var strokeColor = CGColor.black
    var alpha: CGFloat = 1
    var blendMode = CGBlendMode.normal
    var clip: ClipRegion
    var shouldAntialias = true
    var interpolationQuality = CGInterpolationQuality.default
    var lineWidth: CGFloat = 1
    var lineCap = CGLineCap.butt
    var lineJoin = CGLineJoin.miter
    var miterLimit: CGFloat = 10
    var lineDashPhase: CGFloat = 0
    var lineDashLengths: [CGFloat] = []
    var flatness: CGFloat = 0.5
}
