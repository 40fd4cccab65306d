/// A layer's shadow, rasterized and blurred once: an 8-bit coverage mask
/// over the device pixels it touches, kept in the committed node until the
/// shadow, the layer's shape or its place changes (or, for a shadow cast by
/// the layer's group, anything in the group: ``RenderLayer/clearChanges()``).
final class ShadowMask {
    let style: ShadowStyle
    let toDevice: CGAffineTransform
    let visible: PixelRect
    let extent: PixelRect
    let coverage: [UInt8]
    /// Cast by what the layer draws (ContentShadow.swift), not by a shape.
    let castByGroup: Bool

    init(style: ShadowStyle, toDevice: CGAffineTransform, visible: PixelRect, extent: PixelRect, coverage: [UInt8], castByGroup: Bool = false) {
        self.style = style
        self.toDevice = toDevice
        self.visible = visible
        self.extent = extent
        self.coverage = coverage
        self.castByGroup = castByGroup
    }

    /// Whether this is the shadow `style` casts through `toDevice` into `visible`.
    func matches(_ style: ShadowStyle, toDevice: CGAffineTransform, visible: PixelRect, castByGroup: Bool) -> Bool {
        self.castByGroup == castByGroup && self.style == style && self.toDevice == toDevice && self.visible == visible
    }

    /// The shadow of `shape` drawn through `toDevice`: its coverage, moved by
    /// the offset and blurred, over the part of it that can reach `visible`
    /// (the surface drawn into). Nil when it would cover no pixel.
    static func make(style: ShadowStyle, shape: RoundedRectShape, toDevice: CGAffineTransform, visible: PixelRect) -> ShadowMask? {
        let offset = style.offsetInDevice(toDevice)
        let moved = toDevice.concatenating(CGAffineTransform(translationX: offset.width, y: offset.height))
        let filler = ShapeFiller(shape: shape, toDevice: moved)
        let shapePixels: PixelRect
        if let path = style.path {
            let box = path.boundingBoxOfPath
            guard !box.isNull, box.isFinite else { return nil }
            shapePixels = PixelRect(covering: box.applying(moved).insetBy(dx: -1, dy: -1))
        } else {
            guard let filler else { return nil }
            shapePixels = filler.bounds(moved)
        }
        let spread = Int(min(style.blurExtent(toDevice), CGFloat(PixelRect.coordinateLimit / 4)))
        // Pixels further than the blur's reach from the surface cannot show.
        let extent = shapePixels.insetBy(-spread).intersection(visible.insetBy(-spread))
        guard !extent.isEmpty, extent.width <= maximumPixels / extent.height else { return nil }
        var coverage: [UInt8]
        if let path = style.path {
            coverage = rasterize(path, through: moved, over: extent)
        } else {
            coverage = [UInt8](repeating: 0, count: extent.area)
            coverage.withUnsafeMutableBufferPointer { buffer in
                var painter = MaskPainter(mask: buffer.baseAddress!, extent: extent)
                filler?.fill(within: extent, toDevice: moved, painter: &painter)
            }
        }
        coverage.withUnsafeMutableBufferPointer { buffer in
            GaussianBlur.apply(to: buffer, width: extent.width, height: extent.height, sigma: Double(style.sigma(toDevice)))
        }
        return ShadowMask(style: style, toDevice: toDevice, visible: visible, extent: extent, coverage: coverage)
    }

    /// The coverage of a shadow path (non-zero winding, as Core Animation
    /// fills it) over `extent`, by Core Graphics' rasterizer.
    private static func rasterize(_ path: CGPath, through transform: CGAffineTransform, over extent: PixelRect) -> [UInt8] {
        let box = CGRect(x: extent.x0 - 2, y: extent.y0 - 2, width: extent.width + 4, height: extent.height + 4)
        var outline = DeviceOutline(clippingTo: extent)
        for polygon in path.polygons(transform: transform, tolerance: pathTolerance, culling: box) where !outline.addPolygon(polygon) { break }
        return outline.coverage(fillRule: .winding, over: extent)
    }

    /// How far a flattened curve of a shadow path may stray, in pixels (as
    /// Core Graphics flattens the paths it fills).
    static let pathTolerance: CGFloat = 0.05

    /// A shadow larger than this many pixels is not drawn (far beyond any
    /// screen; it keeps a runaway shadow radius from allocating gigabytes).
    static let maximumPixels = 1 << 26

    /// Draws the shadow's colour through the mask, within `clip`, with the
    /// group's opacity.
    func draw(into surface: PixelSurface, clip: PixelRect, opacity: Float) {
        let area = clip.intersection(extent)
        guard !area.isEmpty else { return }
        let color = PixelOps.scale(style.color.pixel, by: PixelOps.alpha(style.opacity * opacity))
        guard color != 0 else { return }
        coverage.withUnsafeBufferPointer { mask in
            for y in area.y0..<area.y1 {
                let row = surface.row(y)
                let maskRow = mask.baseAddress! + (y - extent.y0) * extent.width - extent.x0
                for x in area.x0..<area.x1 {
                    let m = UInt32(maskRow[x])
                    if m != 0 { row[x] = PixelOps.over(PixelOps.scale(color, by: m), row[x]) }
                }
            }
        }
    }
}

/// A Gaussian blur approximated by three box blurs in each direction,
/// whose widths are chosen so that their variance matches the Gaussian's.
enum GaussianBlur {
    static func apply(to pixels: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int, sigma: Double) {
        guard sigma >= 0.5, width > 0, height > 0 else { return }
        var scratch = [UInt8](repeating: 0, count: max(width, height))
        for radius in boxRadii(sigma: sigma) where radius > 0 {
            for y in 0..<height {
                boxBlur(pixels.baseAddress! + y * width, count: width, step: 1, radius: radius, scratch: &scratch)
            }
            for x in 0..<width {
                boxBlur(pixels.baseAddress! + x, count: height, step: width, radius: radius, scratch: &scratch)
            }
        }
    }

    /// Three box radii whose combined variance is σ².
    static func boxRadii(sigma: Double) -> [Int] {
        let n = 3.0
        let ideal = (12 * sigma * sigma / n + 1).squareRoot()
        var lower = Int(ideal.rounded(.down))
        if lower % 2 == 0 { lower -= 1 }
        let upper = lower + 2
        let l = Double(lower)
        let m = ((12 * sigma * sigma - n * l * l - 4 * n * l - 3 * n) / (-4 * l - 4)).rounded()
        return (0..<3).map { Double($0) < m ? (lower - 1) / 2 : (upper - 1) / 2 }
    }

    /// A running-sum box blur of one line, edges treated as transparent.
    private static func boxBlur(_ line: UnsafeMutablePointer<UInt8>, count: Int, step: Int, radius: Int, scratch: inout [UInt8]) {
        let width = 2 * radius + 1
        for i in 0..<count { scratch[i] = line[i * step] }
        var sum = 0
        for i in 0..<min(radius, count) { sum += Int(scratch[i]) }
        for i in 0..<count {
            let entering = i + radius, leaving = i - radius - 1
            if entering < count { sum += Int(scratch[entering]) }
            if leaving >= 0 { sum -= Int(scratch[leaving]) }
            line[i * step] = UInt8((sum + width / 2) / width)
        }
    }
}
