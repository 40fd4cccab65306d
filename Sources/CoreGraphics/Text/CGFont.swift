import CFreeType
import Synchronization

/// A font: one outline font face, independent of size, as Core Graphics'
/// `CGFont` is. Metrics are in the font's design units (``unitsPerEm`` to
/// the em). Fonts are found by name among the fonts fontconfig lists.
public final class CGFont: Sendable, Hashable, CustomStringConvertible {
    package let face: FontFace

    /// The font installed under `name` (PostScript name, full name, or
    /// family name for its regular face), or nil if there is none.
    public init?(_ name: String) {
        guard let face = FontFace.named(name) else { return nil }
        self.face = face
    }

    package init(face: FontFace) {
        self.face = face
    }

    public var unitsPerEm: Int32 { face.unitsPerEm }
    /// The typographic ascent (hhea), in design units; positive.
    public var ascent: Int32 { face.ascent }
    /// The typographic descent (hhea), in design units; negative.
    public var descent: Int32 { face.descent }
    /// The line gap (hhea), in design units.
    public var leading: Int32 { face.leading }
    public var capHeight: Int32 { face.capHeight }
    public var xHeight: Int32 { face.xHeight }
    public var italicAngle: CGFloat { face.italicAngle }
    public var numberOfGlyphs: Int { face.numberOfGlyphs }
    /// The PostScript name, "DejaVuSans-Bold".
    public var postScriptName: String? { face.postScriptName }
    /// The full name, "DejaVu Sans Bold".
    public var fullName: String? { face.fullName }

    /// The glyph for each Unicode scalar of `text`, 0 where the font has none.
    public func glyphs(for text: String) -> [CGGlyph] {
        face.glyphs(for: text.unicodeScalars)
    }

    /// The advance of each glyph in design units, as `getGlyphAdvances` gives them.
    public func advances(of glyphs: [CGGlyph]) -> [Int] {
        face.withFace { state in glyphs.map { Int(state.advance(of: $0)) } }
    }

    public static func == (lhs: CGFont, rhs: CGFont) -> Bool { lhs.face == rhs.face }
    public func hash(into hasher: inout Hasher) { hasher.combine(face) }
    public var description: String { "CGFont(\(face.postScriptName))" }
}

/// An open font face: one outline font file (or one face of a collection),
/// independent of size, with its metrics in design units, its kerning and
/// its caches. `CGFont` and `UIFont` are handles on it.
///
/// A face is opened once per process and shared. Its FreeType handle and
/// its caches are behind a lock, so any thread may use it; text drawing
/// takes the lock once per run of glyphs, not per glyph.
package final class FontFace: Sendable, Hashable, CustomStringConvertible {
    /// The installed face this is.
    package let installed: InstalledFace
    /// Its index in ``FontCatalog/faces``.
    package let catalogIndex: Int

    package let unitsPerEm: Int32
    /// The typographic ascent (hhea), in design units; positive.
    package let ascent: Int32
    /// The typographic descent (hhea), in design units; negative, as Core Graphics has it.
    package let descent: Int32
    /// The line gap (hhea), in design units.
    package let leading: Int32
    /// The height of capital letters, from the OS/2 table, or measured on
    /// "H" when the table does not give it (DejaVu's does not).
    package let capHeight: Int32
    /// The height of lower-case letters, from the OS/2 table, or measured on "x".
    package let xHeight: Int32
    package let italicAngle: CGFloat
    package let numberOfGlyphs: Int

    /// Pair kerning from the font's GPOS table, else its `kern` table
    /// through FreeType; see ``KerningSource``.
    package let kerning: PairKerning

    private let state: Mutex<FaceState>

    // MARK: Opening

    private static let openFaces = Mutex<[Int: FontFace]>([:])

    /// The process's font for an installed face, opening it the first time.
    package static func font(for face: InstalledFace) -> FontFace? {
        guard let index = FontCatalog.shared.index(of: face) else { return nil }
        return font(atCatalogIndex: index)
    }

    package static func font(atCatalogIndex index: Int) -> FontFace? {
        openFaces.withLock { open in
            if let font = open[index] { return font }
            guard let font = FontFace(opening: FontCatalog.shared.faces[index], catalogIndex: index) else { return nil }
            open[index] = font
            return font
        }
    }

    private init?(opening face: InstalledFace, catalogIndex: Int) {
        guard let handle = FreeTypeFace(file: face.file, index: face.index) else { return nil }
        let ft = handle.face
        installed = face
        self.catalogIndex = catalogIndex
        unitsPerEm = Int32(ft.pointee.units_per_EM)
        numberOfGlyphs = Int(ft.pointee.num_glyphs)
        let hhea = FT_Get_Sfnt_Table(ft, FT_SFNT_HHEA)?.assumingMemoryBound(to: TT_HoriHeader.self).pointee
        ascent = Int32(hhea?.Ascender ?? ft.pointee.ascender)
        descent = Int32(hhea?.Descender ?? ft.pointee.descender)
        leading = Int32(hhea?.Line_Gap ?? 0)
        let os2 = FT_Get_Sfnt_Table(ft, FT_SFNT_OS2)?.assumingMemoryBound(to: TT_OS2.self).pointee
        let post = FT_Get_Sfnt_Table(ft, FT_SFNT_POST)?.assumingMemoryBound(to: TT_Postscript.self).pointee
        italicAngle = CGFloat(post?.italicAngle ?? 0) / 65536
        func measuredHeight(of character: Unicode.Scalar) -> Int32 {
            let glyph = FT_Get_Char_Index(ft, FT_ULong(character.value))
            guard glyph != 0, FT_Load_Glyph(ft, glyph, FreeTypeFace.unscaledLoadFlags) == 0 else { return 0 }
            var box = FT_BBox()
            FT_Outline_Get_CBox(&ft.pointee.glyph.pointee.outline, &box)
            return Int32(box.yMax)
        }
        let capFromTable = Int32(os2?.sCapHeight ?? 0), xFromTable = Int32(os2?.sxHeight ?? 0)
        capHeight = capFromTable > 0 ? capFromTable : measuredHeight(of: "H")
        xHeight = xFromTable > 0 ? xFromTable : measuredHeight(of: "x")
        kerning = PairKerning(face: handle)
        state = Mutex(FaceState(face: handle, kerning: kerning))
    }

    // MARK: Names

    /// The PostScript name, "DejaVuSans-Bold".
    package var postScriptName: String { installed.postScriptName }
    /// The full name, "DejaVu Sans Bold".
    package var fullName: String { installed.fullName }
    /// The family name, "DejaVu Sans".
    package var familyName: String { installed.family }

    /// The face installed under `name` (PostScript name, full name, or
    /// family name for its regular face), or nil if there is none.
    package static func named(_ name: String) -> FontFace? {
        FontCatalog.shared.face(named: name).flatMap(font(for:))
    }

    package static func == (lhs: FontFace, rhs: FontFace) -> Bool { lhs.catalogIndex == rhs.catalogIndex }
    package func hash(into hasher: inout Hasher) { hasher.combine(catalogIndex) }
    package var description: String { "FontFace(\(postScriptName))" }

    // MARK: Glyphs

    /// The glyph for each scalar, 0 (the font's .notdef) where the font has none.
    package func glyphs(for scalars: some Sequence<Unicode.Scalar>) -> [CGGlyph] {
        state.withLock { state in scalars.map { state.glyph(for: $0) } }
    }

    /// The glyph for `scalar`, 0 when the font has none.
    package func glyph(for scalar: Unicode.Scalar) -> CGGlyph {
        state.withLock { $0.glyph(for: scalar) }
    }

    /// Calls `body` with the face's locked state, for a run of glyph lookups,
    /// advances and rasterizations under one lock.
    package func withFace<R>(_ body: (inout FaceState) throws -> R) rethrows -> R {
        try state.withLock { try body(&$0) }
    }

    /// The advance of `glyph` in design units.
    package func advance(of glyph: CGGlyph) -> Int32 {
        state.withLock { $0.advance(of: glyph) }
    }

    /// Empties every rasterized-glyph cache of this face (the benchmark's
    /// cold start; fonts and their character maps stay loaded).
    package func purgeGlyphImages() {
        state.withLock { $0.purgeGlyphImages() }
    }

    /// Empties the rasterized-glyph caches of every open face.
    package static func purgeAllGlyphImages() {
        for font in openFaces.withLock({ Array($0.values) }) { font.purgeGlyphImages() }
    }
}

/// A glyph index in a font.
public typealias CGGlyph = UInt16

/// An open FreeType face with a FreeType library of its own, so that faces
/// never share FreeType state and each face's lock is enough.
package final class FreeTypeFace: @unchecked Sendable {
    // Used only under the owning CGFont's lock (or before it is shared).
    let library: FT_Library
    let face: FT_Face

    /// Outlines in design units, no hinting, no embedded bitmaps.
    static let unscaledLoadFlags = Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)

    init?(file: String, index: Int) {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return nil }
        var face: FT_Face?
        guard FT_New_Face(library, file, FT_Long(index), &face) == 0, let face,
              face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 else {
            if let face { FT_Done_Face(face) }
            FT_Done_FreeType(library)
            return nil
        }
        FT_Select_Charmap(face, FT_ENCODING_UNICODE)
        self.library = library
        self.face = face
    }

    /// The bytes of the sfnt table `tag`, or nil if the font has none.
    func table(_ tag: String) -> [UInt8]? {
        let t = tag.utf8.reduce(UInt(0)) { $0 << 8 | UInt($1) }
        var length: FT_ULong = 0
        guard FT_Load_Sfnt_Table(face, t, 0, nil, &length) == 0, length > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        guard FT_Load_Sfnt_Table(face, t, 0, &bytes, &length) == 0 else { return nil }
        return bytes
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }
}

extension FontFace {
    /// The face of the system family (or the monospaced one) nearest
    /// `weight` on fontconfig's scale.
    ///
    /// A machine without a single outline font cannot draw text at all; that
    /// is a broken installation, reported as such.
    package static func systemFace(weight: Int, italic: Bool, monospaced: Bool) -> FontFace {
        let catalog = FontCatalog.shared
        let family = monospaced
            ? catalog.firstInstalledFamily(of: FontCatalog.monospacedFamilies, generic: "monospace")
            : catalog.firstInstalledFamily(of: FontCatalog.systemFamilies, generic: "sans-serif")
        if let family, let installed = catalog.face(family: family, weight: weight, italic: italic),
           let face = font(for: installed) {
            return face
        }
        guard let any = catalog.faces.indices.lazy.compactMap(font(atCatalogIndex:)).first else {
            fatalError("No outline font is installed; text needs one (fonts-dejavu-core on Debian and Ubuntu).")
        }
        return any
    }
}
