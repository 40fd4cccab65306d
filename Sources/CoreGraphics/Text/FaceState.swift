import CFreeType

/// A rasterized glyph: an 8-bit coverage mask (0 nothing, 255 fully
/// covered), rows top to bottom, placed relative to the glyph's origin on
/// the baseline (``left`` pixels right of it, ``top`` pixels above it).
package final class GlyphImage: Sendable {
    package let width: Int
    package let height: Int
    package let left: Int
    package let top: Int
    package let coverage: [UInt8]

    init(width: Int, height: Int, left: Int, top: Int, coverage: [UInt8]) {
        self.width = width; self.height = height; self.left = left; self.top = top; self.coverage = coverage
    }
}

/// How glyphs are rasterized. Outlines are not hinted: advances and shapes
/// scale linearly with the size, so text measures the same at every scale
/// (as on Apple's platforms, which do not hint either), and a glyph's pen
/// position keeps its fraction of a pixel: each glyph is rendered at the
/// nearest of ``subpixelPositions`` horizontal offsets within a pixel. The
/// baseline snaps to whole pixels, which keeps stems of horizontal strokes
/// sharp at no cost in layout.
package enum GlyphRasterization {
    package static let subpixelPositions = 4
    /// Sizes above this many pixels to the em are not rasterized into the
    /// cache (one glyph would take megabytes); text that large is not drawn.
    package static let maximumPixelsPerEm: Float = 2048
    static let loadFlags = Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)
}

/// The mutable part of a face, always used under its lock: the FreeType
/// handle and the caches filled from it.
package struct FaceState: @unchecked Sendable {
    // @unchecked: the FreeType handle is only touched under the face's lock.
    private let handle: FreeTypeFace
    private let kerning: PairKerning
    /// Glyphs of the first 0x500 scalars (Latin, Greek, Cyrillic), in an
    /// array for speed; 0xFFFF_FFFF means not looked up yet.
    private var lowGlyphs: [UInt32]
    private var otherGlyphs: [UInt32: CGGlyph] = [:]
    private var advances: [Int32]
    private var kernPairs: [UInt32: Int32] = [:]
    private var images: [GlyphImageKey: GlyphImage?] = [:]
    private var currentPixelsPerEm: Float = 0

    private static let unknown = UInt32.max
    private static let lowScalarLimit = 0x500

    init(face: FreeTypeFace, kerning: PairKerning) {
        handle = face
        self.kerning = kerning
        lowGlyphs = Array(repeating: Self.unknown, count: Self.lowScalarLimit)
        advances = Array(repeating: -1, count: Int(face.face.pointee.num_glyphs))
    }

    /// The glyph for `scalar`, 0 (.notdef) when the font has none.
    package mutating func glyph(for scalar: Unicode.Scalar) -> CGGlyph {
        let value = Int(scalar.value)
        if value < Self.lowScalarLimit {
            let known = lowGlyphs[value]
            if known != Self.unknown { return CGGlyph(known) }
            let glyph = lookUpGlyph(scalar)
            lowGlyphs[value] = UInt32(glyph)
            return glyph
        }
        if let known = otherGlyphs[scalar.value] { return known }
        let glyph = lookUpGlyph(scalar)
        otherGlyphs[scalar.value] = glyph
        return glyph
    }

    private func lookUpGlyph(_ scalar: Unicode.Scalar) -> CGGlyph {
        let index = FT_Get_Char_Index(handle.face, FT_ULong(scalar.value))
        return index <= UInt32(CGGlyph.max) ? CGGlyph(index) : 0
    }

    /// The advance of `glyph` in design units.
    package mutating func advance(of glyph: CGGlyph) -> Int32 {
        let index = Int(glyph)
        guard index < advances.count else { return 0 }
        if advances[index] >= 0 { return advances[index] }
        var advance: Int32 = 0
        if FT_Load_Glyph(handle.face, UInt32(glyph), FreeTypeFace.unscaledLoadFlags) == 0 {
            advance = Int32(handle.face.pointee.glyph.pointee.advance.x)
        }
        advances[index] = advance
        // Loading unscaled replaced the scaled state FreeType keeps per face.
        currentPixelsPerEm = 0
        return advance
    }

    /// The kerning adjustment between two glyphs, in design units.
    package mutating func kerning(_ first: CGGlyph, _ second: CGGlyph) -> Int32 {
        switch kerning.source {
        case .none:
            return 0
        case .gpos, .kernTable:
            let key = UInt32(first) << 16 | UInt32(second)
            if let known = kernPairs[key] { return known }
            let value: Int32
            if kerning.source == .gpos {
                value = kerning.gposAdjustment(first, second)
            } else {
                var vector = FT_Vector()
                FT_Get_Kerning(handle.face, UInt32(first), UInt32(second), FT_KERNING_UNSCALED.rawValue, &vector)
                value = Int32(vector.x)
            }
            kernPairs[key] = value
            return value
        }
    }

    /// `glyph` rasterized at `pixelsPerEm`, shifted right by
    /// `subpixel / subpixelPositions` of a pixel; nil for a glyph with no
    /// ink (a space) or a size too large to rasterize.
    package mutating func image(of glyph: CGGlyph, pixelsPerEm: Float, subpixel: Int) -> GlyphImage? {
        let key = GlyphImageKey(glyph: glyph, subpixel: UInt8(subpixel), pixelsPerEm: pixelsPerEm)
        if let known = images[key] { return known }
        let image = rasterize(glyph, pixelsPerEm: pixelsPerEm, subpixel: subpixel)
        images[key] = image
        return image
    }

    private mutating func rasterize(_ glyph: CGGlyph, pixelsPerEm: Float, subpixel: Int) -> GlyphImage? {
        guard pixelsPerEm > 0, pixelsPerEm <= GlyphRasterization.maximumPixelsPerEm else { return nil }
        let face = handle.face
        if currentPixelsPerEm != pixelsPerEm {
            guard FT_Set_Char_Size(face, 0, FT_F26Dot6((pixelsPerEm * 64).rounded()), 72, 72) == 0 else { return nil }
            currentPixelsPerEm = pixelsPerEm
        }
        guard FT_Load_Glyph(face, UInt32(glyph), GlyphRasterization.loadFlags) == 0 else { return nil }
        let slot = face.pointee.glyph!
        guard slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE else { return nil }
        FT_Outline_Translate(&slot.pointee.outline, FT_Pos(subpixel * 64 / GlyphRasterization.subpixelPositions), 0)
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return nil }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        guard width > 0, height > 0, let buffer = bitmap.buffer else { return nil }
        var coverage = [UInt8](repeating: 0, count: width * height)
        coverage.withUnsafeMutableBufferPointer { out in
            for row in 0..<height {
                let source = pitch >= 0 ? buffer + row * pitch : buffer + (height - 1 - row) * -pitch
                (out.baseAddress! + row * width).update(from: source, count: width)
            }
        }
        return GlyphImage(width: width, height: height, left: Int(slot.pointee.bitmap_left),
                          top: Int(slot.pointee.bitmap_top), coverage: coverage)
    }

    /// The outline of `glyph` in design units, valid until the face loads
    /// another glyph; nil for a glyph without one.
    mutating func unscaledOutline(of glyph: CGGlyph) -> FT_Outline? {
        guard FT_Load_Glyph(handle.face, UInt32(glyph), FreeTypeFace.unscaledLoadFlags) == 0 else { return nil }
        currentPixelsPerEm = 0
        let slot = handle.face.pointee.glyph!
        guard slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE else { return nil }
        return slot.pointee.outline
    }

    /// Forgets every rasterized glyph, looked-up glyph, advance and kerning
    /// pair: the state of a face just opened.
    package mutating func purgeGlyphImages() {
        images.removeAll()
        otherGlyphs.removeAll()
        kernPairs.removeAll()
        for i in lowGlyphs.indices { lowGlyphs[i] = Self.unknown }
        for i in advances.indices { advances[i] = -1 }
    }
}

/// A glyph at a size and sub-pixel offset, packed into one word: hashing
/// one word is cheaper than hashing three fields, and the cache is looked
/// up for every glyph drawn.
private struct GlyphImageKey: Hashable {
    let bits: UInt64

    init(glyph: CGGlyph, subpixel: UInt8, pixelsPerEm: Float) {
        bits = UInt64(glyph) << 40 | UInt64(subpixel) << 32 | UInt64(pixelsPerEm.bitPattern)
    }
}
