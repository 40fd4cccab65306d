/// How a drawn colour (the source) combines with what is already in the
/// bitmap (the destination). The formulas are those of the W3C's
/// Compositing and Blending spec and Porter–Duff, on premultiplied colour;
/// every mode applies only where the shape covers.
public enum CGBlendMode: Int32, Sendable {
    case normal = 0
    case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight
    case difference, exclusion, hue, saturation, color, luminosity
    case clear, copy, sourceIn, sourceOut, sourceAtop, destinationOver, destinationIn, destinationOut
    case destinationAtop, xor, plusDarker, plusLighter
}

/// `word`'s four bytes each multiplied by `factor`/255, rounded.
@inline(__always)
package func scaleBytes(_ word: UInt32, by factor: UInt32) -> UInt32 {
    var rb = (word & 0x00FF_00FF) &* factor &+ 0x0080_0080
    rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
    var ag = ((word >> 8) & 0x00FF_00FF) &* factor &+ 0x0080_0080
    ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
    return rb | ag
}

/// Source over destination for premultiplied words of the same format:
/// `s + d·(1 − αs)`.
@inline(__always)
package func sourceOver(_ source: UInt32, _ destination: UInt32, alphaShift: UInt32) -> UInt32 {
    let inverseAlpha = 255 - ((source >> alphaShift) & 0xFF)
    return source &+ scaleBytes(destination, by: inverseAlpha)
}

extension CGBlendMode {
    /// The blended result of premultiplied source and destination colours,
    /// components in 0…1, before coverage is applied.
    func blend(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        let sa = s.w, da = d.w
        switch self {
        case .normal: return s + d * (1 - sa)
        case .clear: return .zero
        case .copy: return s
        case .sourceIn: return s * da
        case .sourceOut: return s * (1 - da)
        case .sourceAtop: return s * da + d * (1 - sa)
        case .destinationOver: return s * (1 - da) + d
        case .destinationIn: return d * sa
        case .destinationOut: return d * (1 - sa)
        case .destinationAtop: return s * (1 - da) + d * sa
        case .xor: return s * (1 - da) + d * (1 - sa)
        case .plusLighter: return (s + d).clamped(lowerBound: .zero, upperBound: .one)
        case .plusDarker:
            // max(0, 1 − ((1 − D) + (1 − S))) on colour taken over the result's alpha.
            let alpha = min(1, sa + da)
            var r = SIMD4<Float>(repeating: alpha) - ((SIMD4(repeating: sa) - s) + (SIMD4(repeating: da) - d))
            r = r.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: alpha))
            r.w = alpha
            return r
        case .hue, .saturation, .color, .luminosity:
            return nonSeparable(s, d)
        default:
            return separable(s, d)
        }
    }

    /// `cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs)` with `B` one of the
    /// separable blend functions on unpremultiplied colour.
    private func separable(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        let sa = s.w, da = d.w
        let cs = sa > 0 ? s / sa : .zero, cb = da > 0 ? d / da : .zero
        var mixed = SIMD4<Float>.zero
        for i in 0..<3 { mixed[i] = separableChannel(cb[i], cs[i]) }
        var r = s * (1 - da) + d * (1 - sa) + mixed * (sa * da)
        r.w = sa + da * (1 - sa)
        return r
    }

    private func separableChannel(_ b: Float, _ s: Float) -> Float {
        switch self {
        case .multiply: return b * s
        case .screen: return b + s - b * s
        case .overlay: return CGBlendMode.hardLight.separableChannel(s, b)
        case .darken: return min(b, s)
        case .lighten: return max(b, s)
        case .colorDodge: return b == 0 ? 0 : (s >= 1 ? 1 : min(1, b / (1 - s)))
        case .colorBurn: return b >= 1 ? 1 : (s <= 0 ? 0 : 1 - min(1, (1 - b) / s))
        case .hardLight: return s <= 0.5 ? b * 2 * s : CGBlendMode.screen.separableChannel(b, 2 * s - 1)
        case .softLight:
            if s <= 0.5 { return b - (1 - 2 * s) * b * (1 - b) }
            let dB = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
            return b + (2 * s - 1) * (dB - b)
        case .difference: return abs(b - s)
        case .exclusion: return b + s - 2 * b * s
        default: return s
        }
    }

    /// Hue, saturation, colour and luminosity, as the W3C defines them.
    private func nonSeparable(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        let sa = s.w, da = d.w
        let cs = sa > 0 ? SIMD3(s.x, s.y, s.z) / sa : .zero
        let cb = da > 0 ? SIMD3(d.x, d.y, d.z) / da : .zero
        func lum(_ c: SIMD3<Float>) -> Float { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }
        func clipColor(_ c: SIMD3<Float>) -> SIMD3<Float> {
            let l = lum(c), n = c.min(), x = c.max()
            var c = c
            if n < 0 { c = SIMD3(repeating: l) + (c - l) * l / (l - n) }
            if x > 1 { c = SIMD3(repeating: l) + (c - l) * (1 - l) / (x - l) }
            return c
        }
        func setLum(_ c: SIMD3<Float>, _ l: Float) -> SIMD3<Float> { clipColor(c + (l - lum(c))) }
        func sat(_ c: SIMD3<Float>) -> Float { c.max() - c.min() }
        func setSat(_ c: SIMD3<Float>, _ s: Float) -> SIMD3<Float> {
            let n = c.min(), x = c.max()
            guard x > n else { return .zero }
            return (c - n) * s / (x - n)
        }
        let mixed: SIMD3<Float>
        switch self {
        case .hue: mixed = setLum(setSat(cs, sat(cb)), lum(cb))
        case .saturation: mixed = setLum(setSat(cb, sat(cs)), lum(cb))
        case .color: mixed = setLum(cs, lum(cb))
        default: mixed = setLum(cb, lum(cs))
        }
        let rgb = SIMD3(s.x, s.y, s.z) * (1 - da) + SIMD3(d.x, d.y, d.z) * (1 - sa) + mixed * (sa * da)
        return SIMD4(rgb, sa + da * (1 - sa))
    }
}
