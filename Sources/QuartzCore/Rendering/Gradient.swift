import Foundation

/// A gradient layer's gradient as committed: its colours looked up by
/// position (0…1) in a table of 256 premultiplied pixels.
///
/// Colours are interpolated premultiplied (a choice: Core Animation does
/// not document it; premultiplied, a fade to a clear colour does not pass
/// through grey, as in CSS).
struct GradientStyle: Equatable {
    let type: CAGradientLayerType
    let start: CGPoint
    let end: CGPoint
    /// Pixels (``PremultipliedColor/pixel``) at 256 even positions.
    let table: [UInt32]

    static let tableSize = 256

    /// Nil when the layer draws no gradient: not a gradient layer, or no
    /// colours. `points` are the start and end as shown (the model's, or
    /// the presentation's while they animate).
    @MainActor init?(of layer: CALayer, points: GradientPoints?) {
        guard let gradient = layer as? CAGradientLayer, let points else { return nil }
        let colors = (gradient.colors ?? []).compactMap { $0 as? CGColor }
        guard !colors.isEmpty else { return nil }
        var positions = colors.indices.map { colors.count == 1 ? 0 : Double($0) / Double(colors.count - 1) }
        if let locations = gradient.locations, locations.count == colors.count {
            let given = locations.map(\.doubleValue)
            if given.allSatisfy(\.isFinite) { positions = given }
        }
        let stops = zip(positions, colors.map { PremultipliedColor($0) }).map { ($0, $1) }
        type = gradient.type
        start = points.start
        end = points.end
        table = (0..<Self.tableSize).map { i in
            Self.color(at: Double(i) / Double(Self.tableSize - 1), stops: stops).pixel
        }
    }

    /// The colour at `t`: the first stop's before it, the last one's after
    /// it, the two around it mixed in between.
    private static func color(at t: Double, stops: [(Double, PremultipliedColor)]) -> PremultipliedColor {
        guard let first = stops.first, let last = stops.last else { return PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0) }
        if t <= first.0 { return first.1 }
        if t >= last.0 { return last.1 }
        for i in 1..<stops.count where t <= stops[i].0 {
            let (a, ca) = stops[i - 1], (b, cb) = stops[i]
            let f = b > a ? (t - a) / (b - a) : 1
            func mix(_ x: UInt8, _ y: UInt8) -> UInt8 {
                let from = Double(x), to = Double(y)
                let mixed: Double = from + (to - from) * f
                return UInt8(mixed.rounded())
            }
            return PremultipliedColor(red: mix(ca.red, cb.red), green: mix(ca.green, cb.green), blue: mix(ca.blue, cb.blue), alpha: mix(ca.alpha, cb.alpha))
        }
        return last.1
    }

    /// The gradient position of the point `(u, v)` of the unit square of the bounds.
    @inline(__always)
    func position(u: Double, v: Double) -> Double {
        let sx = Double(start.x), sy = Double(start.y), dx = Double(end.x) - sx, dy = Double(end.y) - sy
        switch type {
        case .radial:
            let rx = dx == 0 ? 0 : (u - sx) / dx, ry = dy == 0 ? 0 : (v - sy) / dy
            return (rx * rx + ry * ry).squareRoot()
        case .conic:
            let angle = atan2(v - sy, u - sx) - atan2(dy, dx)
            let turn = angle / (2 * Double.pi)
            return turn - turn.rounded(.down)
        default:
            let length = dx * dx + dy * dy
            return length == 0 ? 0 : ((u - sx) * dx + (v - sy) * dy) / length
        }
    }
}

/// A gradient over the layer's rounded bounds, faded by the layer's opacity.
struct GradientPainter: SpanPainter {
    let surface: PixelSurface
    let style: GradientStyle
    /// Device pixel → the unit square of the bounds.
    let toUnit: CGAffineTransform
    /// 0…255.
    let alpha: UInt32

    init(surface: PixelSurface, style: GradientStyle, bounds: CGRect, toDevice: CGAffineTransform, alpha: UInt32) {
        self.surface = surface
        self.style = style
        self.alpha = alpha
        let unit = CGAffineTransform(translationX: -bounds.minX, y: -bounds.minY)
            .concatenating(CGAffineTransform(scaleX: 1 / max(bounds.width, .leastNonzeroMagnitude), y: 1 / max(bounds.height, .leastNonzeroMagnitude)))
        toUnit = toDevice.inverted().concatenating(unit)
    }

    @inline(__always)
    private func color(x: Int, y: Int) -> UInt32 {
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        let u = Double(toUnit.a) * px + Double(toUnit.c) * py + Double(toUnit.tx)
        let v = Double(toUnit.b) * px + Double(toUnit.d) * py + Double(toUnit.ty)
        let t = style.position(u: u, v: v)
        let index = t.isFinite ? Int(min(1, max(0, t)) * Double(GradientStyle.tableSize - 1) + 0.5) : 0
        return style.table[index]
    }

    mutating func fill(y: Int, from x0: Int, to x1: Int) {
        let row = surface.row(y)
        for x in x0..<x1 {
            let c = alpha == 255 ? color(x: x, y: y) : PixelOps.scale(color(x: x, y: y), by: alpha)
            row[x] = c >> 24 == 255 ? c : PixelOps.over(c, row[x])
        }
    }

    mutating func blend(y: Int, x: Int, coverage: Float) {
        let row = surface.row(y)
        let c = PixelOps.scale(color(x: x, y: y), by: PixelOps.alpha(coverage * Float(alpha) / 255))
        row[x] = PixelOps.over(c, row[x])
    }
}
