import Foundation

/// Core Foundation's array type, as Core Graphics' functions take it:
/// `[color1, color2] as CFArray`. Swift on Linux has no toll-free bridging
/// to Core Foundation, so the name stands for `NSArray`, which such casts
/// produce.
public typealias CFArray = NSArray

/// A colour ramp for `CGContext.drawLinearGradient` and
/// `drawRadialGradient`: colours at locations from 0 to 1. Between two
/// locations the colour is mixed component by component before alpha is
/// applied, as Core Graphics mixes it; before the first location it is the
/// first colour, after the last the last one.
public final class CGGradient: @unchecked Sendable {
    /// The stops, by location: unpremultiplied red, green, blue and alpha.
    let stops: [(location: CGFloat, components: SIMD4<Double>)]

    /// A gradient of `colors` (`CGColor`s; anything else in the array makes
    /// it nil, as does an empty array) at `locations`, one per colour, or
    /// spread evenly from 0 to 1 when nil.
    public init?(colorsSpace space: CGColorSpace?, colors: CFArray, locations: UnsafePointer<CGFloat>?) {
        var components: [SIMD4<Double>] = []
        for case let color in colors {
            guard let color = color as? CGColor else { return nil }
            components.append(SIMD4(Double(color.red), Double(color.green), Double(color.blue), Double(color.alpha)))
        }
        guard let stops = Self.stops(components, locations: locations) else { return nil }
        self.stops = stops
    }

    /// A gradient of `count` colours given as components of `space` (red,
    /// green, blue and alpha for an RGB space; gray and alpha for a gray
    /// one), at `locations` or evenly spread when nil.
    public init?(colorSpace space: CGColorSpace, colorComponents components: UnsafePointer<CGFloat>, locations: UnsafePointer<CGFloat>?, count: Int) {
        guard count > 0 else { return nil }
        let perColor = space.model == .rgb ? 4 : 2
        var colors: [SIMD4<Double>] = []
        for index in 0..<count {
            let c = components + index * perColor
            colors.append(perColor == 4
                ? SIMD4(Double(c[0]), Double(c[1]), Double(c[2]), Double(c[3]))
                : SIMD4(Double(c[0]), Double(c[0]), Double(c[0]), Double(c[1])))
        }
        guard let stops = Self.stops(colors, locations: locations) else { return nil }
        self.stops = stops
    }

    private static func stops(_ colors: [SIMD4<Double>], locations: UnsafePointer<CGFloat>?) -> [(location: CGFloat, components: SIMD4<Double>)]? {
        guard !colors.isEmpty else { return nil }
        var stops: [(location: CGFloat, components: SIMD4<Double>)] = []
        for (index, color) in colors.enumerated() {
            let evenly = colors.count == 1 ? 0 : CGFloat(index) / CGFloat(colors.count - 1)
            let location = locations.map { $0[index] } ?? evenly
            guard location.isFinite else { return nil }
            stops.append((location, color.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 1))))
        }
        return stops.sorted { $0.location < $1.location }
    }

    /// The colour at `t`, premultiplied, 0…255 a component.
    func color(at t: CGFloat) -> PremultipliedColor {
        let c: SIMD4<Double>
        if t <= stops[0].location {
            c = stops[0].components
        } else if t >= stops[stops.count - 1].location {
            c = stops[stops.count - 1].components
        } else {
            let upper = stops.firstIndex { $0.location >= t }!
            let (a, b) = (stops[upper - 1], stops[upper])
            let f = b.location > a.location ? Double((t - a.location) / (b.location - a.location)) : 1
            c = a.components + (b.components - a.components) * f
        }
        return PremultipliedColor(unpremultipliedRed: c.x, green: c.y, blue: c.z, alpha: c.w)
    }
}

/// Whether a gradient also paints before its start and after its end,
/// with its end colours.
public struct CGGradientDrawingOptions: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let drawsBeforeStartLocation = CGGradientDrawingOptions(rawValue: 1 << 0)
    public static let drawsAfterEndLocation = CGGradientDrawingOptions(rawValue: 1 << 1)
}

extension CGContext {
    /// Fills the clipping area with `gradient` along the line from `start`
    /// to `end` (user space): each point takes the colour of its projection
    /// onto that line. Beyond the ends the area is painted only as
    /// `options` say. The current alpha and blend mode apply; the current
    /// path is not used (clip to it first, as Core Graphics code does).
    public func drawLinearGradient(_ gradient: CGGradient, start: CGPoint, end: CGPoint, options: CGGradientDrawingOptions) {
        guard start.isFinite, end.isFinite else { return }
        paintGradient(GradientShader(gradient, shape: .linear(start: start, end: end), options: options,
                                     deviceToUser: deviceTransform.invertedIfPossible(), alpha: state.alpha, format: pixels.format))
    }

    /// Fills the clipping area with `gradient` between two circles (user
    /// space): from the start circle at location 0 to the end circle at
    /// location 1, each point taking the colour of the largest circle of
    /// the blend between them that passes through it, as PDF's radial
    /// shadings do. Beyond the circles the area is painted only as
    /// `options` say.
    public func drawRadialGradient(
        _ gradient: CGGradient, startCenter: CGPoint, startRadius: CGFloat, endCenter: CGPoint, endRadius: CGFloat,
        options: CGGradientDrawingOptions
    ) {
        guard startCenter.isFinite, endCenter.isFinite, startRadius.isFinite, endRadius.isFinite,
              startRadius >= 0, endRadius >= 0 else { return }
        let shape = GradientShader.Shape.radial(startCenter: startCenter, startRadius: startRadius, endCenter: endCenter, endRadius: endRadius)
        paintGradient(GradientShader(gradient, shape: shape, options: options,
                                     deviceToUser: deviceTransform.invertedIfPossible(), alpha: state.alpha, format: pixels.format))
    }

    private func paintGradient(_ shader: GradientShader) {
        guard shader.deviceToUser != nil else { return }
        let sink = PaintSink(buffer: pixels, clip: state.clip, paint: .gradient(shader), blendMode: state.blendMode, antialias: true)
        let area = state.clip.bounds
        forEachRectSpan(CGRect(x: area.x0, y: area.y0, width: area.width, height: area.height), within: area) { y, x, length, coverage in
            sink.span(y: y, x: x, length: length, coverage: coverage)
        }
    }
}

/// A gradient's colour for each pixel of a destination.
package struct GradientShader {
    enum Shape {
        case linear(start: CGPoint, end: CGPoint)
        case radial(startCenter: CGPoint, startRadius: CGFloat, endCenter: CGPoint, endRadius: CGFloat)
    }

    let shape: Shape
    let extendsBefore: Bool, extendsAfter: Bool
    /// Destination pixel (y down) → user space; nil when the transform cannot be inverted.
    let deviceToUser: CGAffineTransform?
    /// The colours at `table.count` even steps from 0 to 1, in the destination's format.
    let table: [UInt32]

    static let tableSize = 1024

    init(_ gradient: CGGradient, shape: Shape, options: CGGradientDrawingOptions, deviceToUser: CGAffineTransform?, alpha: CGFloat, format: PixelFormat) {
        self.shape = shape
        extendsBefore = options.contains(.drawsBeforeStartLocation)
        extendsAfter = options.contains(.drawsAfterEndLocation)
        self.deviceToUser = deviceToUser
        let alpha8 = UInt32((min(max(alpha.isNaN ? 0 : alpha, 0), 1) * 255).rounded())
        table = (0..<Self.tableSize).map { index in
            let word = format.word(gradient.color(at: CGFloat(index) / CGFloat(Self.tableSize - 1)))
            return alpha8 == 255 ? word : scaleBytes(word, by: alpha8)
        }
    }

    /// The gradient location at the user-space point `p`, nil where the
    /// gradient paints nothing.
    private func location(at p: CGPoint) -> CGFloat? {
        let t: CGFloat
        switch shape {
        case let .linear(start, end):
            let dx = end.x - start.x, dy = end.y - start.y
            let length = dx * dx + dy * dy
            t = length == 0 ? 0 : ((p.x - start.x) * dx + (p.y - start.y) * dy) / length
        case let .radial(c0, r0, c1, r1):
            // |p − c(t)| = r(t) with c(t) = c0 + t·(c1 − c0), r(t) = r0 + t·(r1 − r0):
            // a·t² − 2b·t + c = 0; the largest t whose radius is not negative wins.
            let cdx = c1.x - c0.x, cdy = c1.y - c0.y, dr = r1 - r0
            let pdx = p.x - c0.x, pdy = p.y - c0.y
            let a = cdx * cdx + cdy * cdy - dr * dr
            let b = pdx * cdx + pdy * cdy + r0 * dr
            let c = pdx * pdx + pdy * pdy - r0 * r0
            let larger: CGFloat, smaller: CGFloat
            if abs(a) < 1e-9 {
                guard b != 0 else { return nil }
                larger = c / (2 * b)
                smaller = larger
            } else {
                let discriminant = b * b - a * c
                guard discriminant >= 0 else { return nil }
                let root = discriminant.squareRoot()
                larger = max((b + root) / a, (b - root) / a)
                smaller = min((b + root) / a, (b - root) / a)
            }
            if r0 + larger * dr >= 0 && isPainted(larger) {
                t = larger
            } else if r0 + smaller * dr >= 0 && isPainted(smaller) {
                t = smaller
            } else {
                return nil
            }
        }
        return isPainted(t) ? min(max(t, 0), 1) : nil
    }

    private func isPainted(_ t: CGFloat) -> Bool {
        t.isFinite && (t >= 0 || extendsBefore) && (t <= 1 || extendsAfter)
    }

    /// Fills `out` with the colours of pixels `x..<x+count` of row `y`
    /// (transparent where the gradient paints nothing).
    func fetch(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        guard let m = deviceToUser else {
            out.initialize(repeating: 0, count: count)
            return
        }
        let last = CGFloat(Self.tableSize - 1)
        let cy = CGFloat(y) + 0.5
        for i in 0..<count {
            let cx = CGFloat(x + i) + 0.5
            let p = CGPoint(x: m.a * cx + m.c * cy + m.tx, y: m.b * cx + m.d * cy + m.ty)
            if let t = location(at: p) {
                out[i] = table[Int((t * last).rounded())]
            } else {
                out[i] = 0
            }
        }
    }
}
