/// Reads an image's pixels for the pixels of a destination, through a
/// transform, filtered bilinearly or taking the nearest pixel.
package struct ImageSampler {
    let source: PixelBuffer
    /// Destination pixel (y down) → source pixel (y down).
    let inverse: CGAffineTransform
    let nearest: Bool
    /// 0…255, applied to every sample.
    let alpha: UInt32
    let targetFormat: PixelFormat
    /// Whether destination pixels map onto whole source pixels one to one.
    let integerOffset: (x: Int, y: Int)?
    /// Whether a filtered sample through a transform that neither turns
    /// nor shears (a label sliding between pixels, a screen scaled back)
    /// takes ``fetchAlongAxes(y:x:count:into:)``, which gives the same
    /// words as the general loop for less: always, but in tests that
    /// compare the two.
    package var followsAxes = true

    /// A sampler drawing `source` with `transform` (source pixels → destination
    /// pixels, both y down); nil when the transform cannot be inverted.
    package init?(source: PixelBuffer, transform: CGAffineTransform, alpha: CGFloat, nearest: Bool, targetFormat: PixelFormat) {
        guard let inverse = transform.invertedIfPossible(), inverse.tx.isFinite, inverse.ty.isFinite else { return nil }
        self.source = source
        self.inverse = inverse
        self.nearest = nearest
        self.alpha = alpha.isNaN ? 0 : UInt32((min(max(alpha, 0), 1) * 255).rounded())
        self.targetFormat = targetFormat
        if inverse.a == 1, inverse.b == 0, inverse.c == 0, inverse.d == 1,
           inverse.tx == inverse.tx.rounded(), inverse.ty == inverse.ty.rounded(), abs(inverse.tx) < 1e9, abs(inverse.ty) < 1e9 {
            integerOffset = (Int(inverse.tx), Int(inverse.ty))
        } else {
            integerOffset = nil
        }
    }

    /// Fills `out` with the samples for pixels `x..<x+count` of row `y`, as
    /// words in the destination's format.
    package func fetch(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let maxX = source.width - 1, maxY = source.height - 1
        let sameFormat = source.format == targetFormat
        @inline(__always) func texel(_ tx: Int, _ ty: Int) -> UInt32 {
            source.row(min(max(ty, 0), maxY)).loadUnaligned(fromByteOffset: min(max(tx, 0), maxX) * 4, as: UInt32.self)
        }
        if let offset = integerOffset {
            let sy = y + offset.y, sx = x + offset.x
            if sameFormat, alpha == 255, sy >= 0, sy <= maxY, sx >= 0, sx + count - 1 <= maxX {
                // One to one inside the image: its pixels as they are, in one
                // copy (a table row's label as it comes into view).
                UnsafeMutableRawPointer(out).copyMemory(from: source.row(sy) + sx * 4, byteCount: count * 4)
                return
            }
            for i in 0..<count { out[i] = texel(sx + i, sy) }
        } else if followsAxes, !nearest, inverse.b == 0, inverse.c == 0 {
            fetchAlongAxes(y: y, x: x, count: count, into: out)
        } else {
            // Sample at pixel centres: destination (x + ½, y + ½) maps to a
            // point whose surrounding source centres are `floor(u − ½)` and the next.
            let cx = CGFloat(x) + 0.5, cy = CGFloat(y) + 0.5
            var u = inverse.a * cx + inverse.c * cy + inverse.tx
            var v = inverse.b * cx + inverse.d * cy + inverse.ty
            for i in 0..<count {
                defer { u += inverse.a; v += inverse.b }
                guard abs(u) < 1e9, abs(v) < 1e9 else { out[i] = 0; continue }
                if nearest {
                    out[i] = texel(Self.floor(u), Self.floor(v))
                    continue
                }
                let fu = u - 0.5, fv = v - 0.5
                let iu = Self.floor(fu), iv = Self.floor(fv)
                let wu = Self.weight(fu - CGFloat(iu)), wv = Self.weight(fv - CGFloat(iv))
                let top = lerpBytes(texel(iu, iv), texel(iu + 1, iv), wu)
                let bottom = lerpBytes(texel(iu, iv + 1), texel(iu + 1, iv + 1), wu)
                out[i] = lerpBytes(top, bottom, wv)
            }
        }
        guard !sameFormat || alpha < 255 else { return }
        for i in 0..<count {
            var word = out[i]
            if !sameFormat { word = targetFormat.word(source.format.color(word)) }
            if alpha < 255 { word = scaleBytes(word, by: alpha) }
            out[i] = word
        }
    }

    /// The general loop's bilinear samples, with its very arithmetic, for a
    /// transform without turn or shear: a row of the destination then maps
    /// to one row of the source, so the two source rows and their weight
    /// are found once, and only pixels at the image's left and right edges
    /// clamp their columns. Four equal texels (the gaps in a label's text,
    /// the inside of a glyph, a card of one colour) are the sample as they
    /// are, which is what mixing them gives, and start a run of such
    /// samples, found by scanning the two rows and filled whole (below).
    private func fetchAlongAxes(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let cx = CGFloat(x) + 0.5, cy = CGFloat(y) + 0.5
        var u = inverse.a * cx + inverse.c * cy + inverse.tx
        let v = inverse.b * cx + inverse.d * cy + inverse.ty
        guard abs(v) < 1e9 else {
            out.update(repeating: 0, count: count)
            return
        }
        let maxX = source.width - 1, maxY = source.height - 1
        let fv = v - 0.5
        let iv = Self.floor(fv)
        let wv = Self.weight(fv - CGFloat(iv))
        let top = source.row(min(max(iv, 0), maxY)), bottom = source.row(min(max(iv + 1, 0), maxY))
        /// Whether column `column` is `word` in both rows.
        @inline(__always) func both(_ column: Int, are word: UInt32) -> Bool {
            top.loadUnaligned(fromByteOffset: column * 4, as: UInt32.self) == word
                && bottom.loadUnaligned(fromByteOffset: column * 4, as: UInt32.self) == word
        }
        /// The same for columns `column` to `column + 3`, in one test.
        @inline(__always) func both4(_ column: Int, are words: SIMD4<UInt32>) -> Bool {
            top.loadUnaligned(fromByteOffset: column * 4, as: SIMD4<UInt32>.self) == words
                && bottom.loadUnaligned(fromByteOffset: column * 4, as: SIMD4<UInt32>.self) == words
        }
        // Runs of one word are skipped only where the columns step rightwards
        // by a thousandth of a pixel or more: the margin below (one step)
        // then dwarfs the rounding of the steps added up.
        let skipsRuns = inverse.a >= 1e-3
        let stepsPerColumn = 1 / inverse.a
        var i = 0
        while i < count {
            guard abs(u) < 1e9 else {
                out[i] = 0
                u += inverse.a
                i += 1
                continue
            }
            let fu = u - 0.5
            let iu = Self.floor(fu)
            let inside = iu >= 0 && iu < maxX
            let left = inside ? iu : min(max(iu, 0), maxX)
            let right = inside ? iu + 1 : min(max(iu + 1, 0), maxX)
            let t00 = top.loadUnaligned(fromByteOffset: left * 4, as: UInt32.self)
            let t10 = top.loadUnaligned(fromByteOffset: right * 4, as: UInt32.self)
            let t01 = bottom.loadUnaligned(fromByteOffset: left * 4, as: UInt32.self)
            let t11 = bottom.loadUnaligned(fromByteOffset: right * 4, as: UInt32.self)
            if t00 == t10 && t00 == t01 && t00 == t11 {
                out[i] = t00
                u += inverse.a
                i += 1
                // A run of two texels (the inside of a glyph's stroke) is
                // not worth scanning for.
                guard inside, skipsRuns, iu + 2 <= maxX, both(iu + 2, are: t00) else { continue }
                // Columns iu to iu + 2 hold this word in both rows; so do
                // those up to `end`. A later pixel whose right texel lies
                // before `end` (u < end − ½: its texels are iu or more, as u
                // only grows) samples it too. Those are counted from u, one
                // fewer than u's distance to that bound allows, and their u
                // stepped as the loop steps it.
                var end = iu + 3
                let words = SIMD4(repeating: t00)
                while end + 3 <= maxX, both4(end, are: words) { end += 4 }
                while end <= maxX && both(end, are: t00) { end += 1 }
                let bound = end > maxX ? CGFloat(1e9) : CGFloat(end) - 0.5
                let skipped = min(count - i, max(0, Int(min((bound - u) * stepsPerColumn, 1e9)) - 1))
                (out + i).update(repeating: t00, count: skipped)
                for _ in 0..<skipped { u += inverse.a }
                i += skipped
                continue
            }
            let wu = Self.weight(fu - CGFloat(iu))
            out[i] = lerpBytes(lerpBytes(t00, t10, wu), lerpBytes(t01, t11, wu), wv)
            u += inverse.a
            i += 1
        }
    }

    // The two below give exactly what `rounded(.down)` and `rounded()`
    // give, with integer conversions: for the generic x86-64 target those
    // are calls into the C library (`floor`, `round`), four per filtered
    // pixel, which made them most of the cost of drawing an image between
    // pixels (a table row's label as it comes into view).

    /// `Int(x.rounded(.down))`, for |x| < 1e9.
    @inline(__always)
    static func floor(_ x: CGFloat) -> Int {
        let toward0 = Int(x)
        return CGFloat(toward0) > x ? toward0 - 1 : toward0
    }

    /// `UInt32((fraction * 256).rounded())`, halves away from zero, for a
    /// fraction in 0…1.
    @inline(__always)
    static func weight(_ fraction: CGFloat) -> UInt32 {
        let scaled = fraction * 256
        let whole = UInt32(scaled)
        // Exact: `scaled` and `whole` are less than one apart.
        return scaled - CGFloat(whole) >= 0.5 ? whole + 1 : whole
    }
}

/// Each byte of `a` moved `weight`/256 of the way to the same byte of `b`.
/// Inlinable: QuartzCore's projection mixes with it at every pixel.
@inlinable @inline(__always)
package func lerpBytes(_ a: UInt32, _ b: UInt32, _ weight: UInt32) -> UInt32 {
    // Typed steps: one expression of this size took the type checker seconds.
    let keep: UInt32 = 256 - weight
    let evenBytes: UInt32 = 0x00FF_00FF, rounding: UInt32 = 0x0080_0080
    let rbSum: UInt32 = (a & evenBytes) &* keep &+ (b & evenBytes) &* weight &+ rounding
    let agSum: UInt32 = ((a >> 8) & evenBytes) &* keep &+ ((b >> 8) & evenBytes) &* weight &+ rounding
    return ((rbSum >> 8) & evenBytes) | (agSum & 0xFF00_FF00)
}

/// What a shape is filled with.
package enum Paint {
    case solid(PremultipliedColor)
    case image(ImageSampler)
    case gradient(GradientShader)
}

/// Composites spans of coverage into a bitmap: the paint, weighted by the
/// coverage and the clip's mask, blended with the pixels there.
///
/// A sink can be set up again for another drawing (``configure(buffer:clip:paint:blendMode:antialias:)``),
/// keeping its scratch memory: a context draws all its text through one.
final class PaintSink: SpanSink {
    private(set) var buffer: PixelBuffer
    private(set) var mask: ClipMask?
    private(set) var blendMode: CGBlendMode = .normal
    private(set) var antialias = true
    private(set) var paint: Paint
    private var solidWord: UInt32 = 0
    private var solidIsOpaque = false
    private var alphaShift: UInt32 = 0
    /// A solid colour blended normally, anti-aliased, with no clip mask:
    /// text's case, whose runs of coverages blend in one pass.
    private var blendsSolidCoveragesDirectly = false
    /// Scratch rows, grown to the longest run seen (allocated at the first
    /// run that needs them), freed in deinit.
    private var samples = PaintSink.noSamples
    private var coverages = PaintSink.noCoverages
    private var scratchCapacity = 0
    /// The solid colour's word scaled by each coverage, 0…255, made on
    /// first use by ``blendSolid(y:x:length:coverages:)``: a glyph's many
    /// edge pixels then cost one look-up instead of a multiplication.
    private var scaledSolidWords: UnsafeMutablePointer<UInt32>?
    /// The word ``scaledSolidWords`` was made for.
    private var scaledWord: UInt32 = 0

    /// What the scratch pointers hold until a run needs scratch rows, never
    /// read or freed: one allocation for the process rather than two of 0
    /// bytes (still allocations) for every sink.
    private nonisolated(unsafe) static let noSamples = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
    private nonisolated(unsafe) static let noCoverages = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)

    init(buffer: PixelBuffer, clip: ClipRegion, paint: Paint, blendMode: CGBlendMode, antialias: Bool) {
        self.buffer = buffer
        self.paint = paint
        super.init()
        configure(buffer: buffer, clip: clip, paint: paint, blendMode: blendMode, antialias: antialias)
    }

    /// Sets the sink up for another drawing, keeping its scratch memory.
    func configure(buffer: PixelBuffer, clip: ClipRegion, paint: Paint, blendMode: CGBlendMode, antialias: Bool) {
        self.buffer = buffer
        mask = clip.mask
        self.blendMode = blendMode
        self.antialias = antialias
        self.paint = paint
        alphaShift = UInt32(buffer.format.alpha * 8)
        if case let .solid(color) = paint {
            solidWord = buffer.format.word(color)
            solidIsOpaque = color.isOpaque
            blendsSolidCoveragesDirectly = mask == nil && antialias && blendMode == .normal
        } else {
            solidWord = 0
            solidIsOpaque = false
            blendsSolidCoveragesDirectly = false
        }
    }

    deinit {
        if scratchCapacity > 0 {
            samples.deallocate()
            coverages.deallocate()
        }
        scaledSolidWords?.deallocate()
    }

    private func reserveScratch(_ length: Int) {
        guard length > scratchCapacity else { return }
        if scratchCapacity > 0 {
            samples.deallocate()
            coverages.deallocate()
        }
        scratchCapacity = max(length, scratchCapacity * 2)
        samples = .allocate(capacity: scratchCapacity)
        coverages = .allocate(capacity: scratchCapacity)
    }

    override func span(y: Int, x: Int, length: Int, coverage: UInt8) {
        let coverage = antialias ? coverage : (coverage >= 128 ? 255 : 0)
        guard coverage != 0, length > 0 else { return }
        if let mask {
            reserveScratch(length)
            let start = mask.row(y, x: x)
            mask.coverage.withUnsafeBufferPointer { m in
                for i in 0..<length { coverages[i] = multiply(coverage, m[start + i]) }
            }
            blend(y: y, x: x, length: length, coverages: coverages)
            return
        }
        blend(y: y, x: x, length: length, coverage: coverage)
    }

    /// Blends a run whose pixels have coverages of their own (a glyph's
    /// bitmap, say), further weighted by the clip's mask.
    func span(y: Int, x: Int, length: Int, coverages source: UnsafePointer<UInt8>) {
        guard length > 0 else { return }
        if blendsSolidCoveragesDirectly {
            blendSolid(y: y, x: x, length: length, coverages: source)
            return
        }
        reserveScratch(length)
        let start = mask.map { $0.row(y, x: x) } ?? 0
        for i in 0..<length {
            var c = source[i]
            if !antialias { c = c >= 128 ? 255 : 0 }
            if let mask { c = multiply(c, mask.coverage[start + i]) }
            coverages[i] = c
        }
        blend(y: y, x: x, length: length, coverages: coverages)
    }

    /// The source words for a run: nil for the solid colour, else the
    /// image's samples or the gradient's colours.
    private func sourceWords(y: Int, x: Int, length: Int) -> UnsafeMutablePointer<UInt32>? {
        switch paint {
        case .solid: return nil
        case .image(let sampler):
            reserveScratch(length)
            sampler.fetch(y: y, x: x, count: length, into: samples)
        case .gradient(let shader):
            reserveScratch(length)
            shader.fetch(y: y, x: x, count: length, into: samples)
        }
        return samples
    }

    private func blend(y: Int, x: Int, length: Int, coverage: UInt8) {
        let row = buffer.row(y) + x * 4
        let sources = sourceWords(y: y, x: x, length: length)
        switch blendMode {
        case .normal:
            if let sources {
                for i in 0..<length {
                    let s = coverage == 255 ? sources[i] : scaleBytes(sources[i], by: UInt32(coverage))
                    let d = row.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)
                    row.storeBytes(of: sourceOver(s, d, alphaShift: alphaShift), toByteOffset: i * 4, as: UInt32.self)
                }
            } else if coverage == 255 && solidIsOpaque {
                for i in 0..<length { row.storeBytes(of: solidWord, toByteOffset: i * 4, as: UInt32.self) }
            } else {
                let s = coverage == 255 ? solidWord : scaleBytes(solidWord, by: UInt32(coverage))
                for i in 0..<length {
                    let d = row.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)
                    row.storeBytes(of: sourceOver(s, d, alphaShift: alphaShift), toByteOffset: i * 4, as: UInt32.self)
                }
            }
        case .copy where coverage == 255:
            for i in 0..<length {
                row.storeBytes(of: sources?[i] ?? solidWord, toByteOffset: i * 4, as: UInt32.self)
            }
        default:
            for i in 0..<length { blendPixel(row + i * 4, source: sources?[i] ?? solidWord, coverage: coverage) }
        }
    }

    /// The solid colour over the row, each pixel by its coverage: what
    /// ``blend(y:x:length:coverages:)`` does for normal blending, without
    /// the scratch copy and the per-pixel choices (a glyph's bitmap is
    /// mostly empty or full).
    private func blendSolid(y: Int, x: Int, length: Int, coverages: UnsafePointer<UInt8>) {
        let scaled = scaledSolidWords.flatMap { scaledWord == solidWord ? $0 : nil } ?? makeScaledSolidWords()
        let row = buffer.row(y) + x * 4
        for i in 0..<length {
            let c = coverages[i]
            if c == 0 { continue }
            if c == 255 && solidIsOpaque {
                row.storeBytes(of: solidWord, toByteOffset: i * 4, as: UInt32.self)
                continue
            }
            let d = row.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)
            row.storeBytes(of: sourceOver(scaled[Int(c)], d, alphaShift: alphaShift), toByteOffset: i * 4, as: UInt32.self)
        }
    }

    private func makeScaledSolidWords() -> UnsafeMutablePointer<UInt32> {
        let words = scaledSolidWords ?? UnsafeMutablePointer<UInt32>.allocate(capacity: 256)
        for c in 0..<255 { words[c] = scaleBytes(solidWord, by: UInt32(c)) }
        words[255] = solidWord
        scaledSolidWords = words
        scaledWord = solidWord
        return words
    }

    private func blend(y: Int, x: Int, length: Int, coverages: UnsafePointer<UInt8>) {
        let row = buffer.row(y) + x * 4
        let sources = sourceWords(y: y, x: x, length: length)
        for i in 0..<length {
            let c = coverages[i]
            guard c != 0 else { continue }
            let s = sources?[i] ?? solidWord
            if blendMode == .normal {
                let d = row.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)
                let scaled = c == 255 ? s : scaleBytes(s, by: UInt32(c))
                row.storeBytes(of: sourceOver(scaled, d, alphaShift: alphaShift), toByteOffset: i * 4, as: UInt32.self)
            } else {
                blendPixel(row + i * 4, source: s, coverage: c)
            }
        }
    }

    /// Any blend mode, in floating point: the blended colour, then the
    /// destination moved towards it by the coverage.
    private func blendPixel(_ pixel: UnsafeMutableRawPointer, source: UInt32, coverage: UInt8) {
        let format = buffer.format
        let d = format.color(pixel.loadUnaligned(as: UInt32.self))
        let s = format.color(source)
        let dv = SIMD4<Float>(Float(d.red), Float(d.green), Float(d.blue), Float(d.alpha)) / 255
        let sv = SIMD4<Float>(Float(s.red), Float(s.green), Float(s.blue), Float(s.alpha)) / 255
        var r = blendMode.blend(sv, dv)
        r = dv + (r - dv) * (Float(coverage) / 255)
        r = (r * 255).rounded(.toNearestOrEven).clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255))
        let a = UInt8(r.w)
        let result = PremultipliedColor(red: min(UInt8(r.x), a), green: min(UInt8(r.y), a), blue: min(UInt8(r.z), a), alpha: a)
        pixel.storeBytes(of: format.word(result), as: UInt32.self)
    }
}
