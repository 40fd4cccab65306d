import CFontconfig
import Synchronization

/// One installed font face, as fontconfig lists it: where it lives and the
/// names and style it answers to.
package struct InstalledFace: Sendable, Hashable {
    package var file: String
    package var index: Int
    package var family: String
    /// Every family name the face lists (a face can be listed under its
    /// family and a narrower one, "DejaVu Sans" and "DejaVu Sans Condensed").
    package var familyNames: [String]
    package var style: String
    package var fullName: String
    package var postScriptName: String
    /// fontconfig's weight scale: 80 is regular, 200 bold.
    package var weight: Int
    /// fontconfig's slant: 0 roman, 100 italic, 110 oblique.
    package var slant: Int
    /// fontconfig's width: 100 is normal, less is condensed.
    package var width: Int
    package var isMonospaced: Bool
}

/// The fonts installed on the machine, found with fontconfig once per
/// process, and the choices made from them: the system families, the face
/// of a family nearest a weight, a face by name, and the fallback faces for
/// characters a font lacks.
///
/// It is process-wide, as Core Text's font registry is: fonts are a property
/// of the machine, not of an application, and every lookup it caches is a
/// pure function of the installed fonts. Its state is behind a lock so any
/// thread may ask.
package final class FontCatalog: Sendable {
    /// The families tried for the system font, best first. Apple's is San
    /// Francisco; DejaVu Sans is on every machine of the kind this runs on
    /// and has Latin, Greek and Cyrillic.
    package static let systemFamilies = ["SF Pro Text", "DejaVu Sans"]
    /// The families tried for the monospaced system font, best first.
    package static let monospacedFamilies = ["SF Mono", "DejaVu Sans Mono"]

    package static let shared = FontCatalog()

    package let faces: [InstalledFace]
    /// The charset of each face in ``faces``, same order, owned by the catalog.
    private let charsets: [CharsetHandle]
    private let fallbackCache = Mutex<[FallbackKey: Int]>([:])
    private let fallbackOrderCache = Mutex<[Int: [Int]]>([:])

    private init() {
        var faces: [InstalledFace] = []
        var charsets: [CharsetHandle] = []
        if FcInit() != 0, let pattern = FcPatternCreate() {
            let objects = FcObjectSetCreate()
            for name in [FC_FILE, FC_INDEX, FC_FAMILY, FC_STYLE, FC_FULLNAME, FC_POSTSCRIPT_NAME,
                         FC_WEIGHT, FC_SLANT, FC_WIDTH, FC_SPACING, FC_CHARSET, FC_FONTFORMAT] {
                FcObjectSetAdd(objects, name)
            }
            if let list = FcFontList(nil, pattern, objects) {
                let count = Int(list.pointee.nfont)
                for i in 0..<count {
                    guard let font = list.pointee.fonts[i], let face = Self.face(from: font) else { continue }
                    var charset: OpaquePointer?
                    guard FcPatternGetCharSet(font, FC_CHARSET, 0, &charset) == FcResultMatch, let charset else { continue }
                    faces.append(face)
                    charsets.append(CharsetHandle(FcCharSetCopy(charset)))
                }
                FcFontSetDestroy(list)
            }
            FcObjectSetDestroy(objects)
            FcPatternDestroy(pattern)
        }
        // A stable order: the same machine gives the same choices.
        let order = faces.indices.sorted { (faces[$0].file, faces[$0].index) < (faces[$1].file, faces[$1].index) }
        self.faces = order.map { faces[$0] }
        self.charsets = order.map { charsets[$0] }
    }

    private static func face(from font: OpaquePointer) -> InstalledFace? {
        func string(_ object: String, _ n: Int32 = 0) -> String? {
            var value: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(font, object, n, &value) == FcResultMatch, let value else { return nil }
            return String(cString: value)
        }
        func integer(_ object: String) -> Int? {
            var value: Int32 = 0
            guard FcPatternGetInteger(font, object, 0, &value) == FcResultMatch else { return nil }
            return Int(value)
        }
        // Only outline formats FreeType scales: bitmap-only fonts cannot be sized.
        guard let file = string(FC_FILE), let family = string(FC_FAMILY),
              ["TrueType", "CFF"].contains(string(FC_FONTFORMAT) ?? "") else { return nil }
        var families: [String] = []
        var n: Int32 = 0
        while let name = string(FC_FAMILY, n) { families.append(name); n += 1 }
        let style = string(FC_STYLE) ?? "Regular"
        return InstalledFace(
            file: file, index: integer(FC_INDEX) ?? 0, family: family, familyNames: families, style: style,
            fullName: string(FC_FULLNAME) ?? "\(family) \(style)",
            postScriptName: string(FC_POSTSCRIPT_NAME) ?? family.replacingOccurrences(of: " ", with: ""),
            weight: integer(FC_WEIGHT) ?? Int(FC_WEIGHT_REGULAR), slant: integer(FC_SLANT) ?? Int(FC_SLANT_ROMAN),
            width: integer(FC_WIDTH) ?? Int(FC_WIDTH_NORMAL), isMonospaced: integer(FC_SPACING) == Int(FC_MONO))
    }

    // MARK: Families and names

    /// The installed family names, sorted.
    package var familyNames: [String] {
        Array(Set(faces.map(\.family))).sorted()
    }

    /// The faces whose primary family is `family` (exact, case-insensitive).
    package func faces(inFamily family: String) -> [InstalledFace] {
        faces.filter { $0.family.caseInsensitiveCompare(family) == .orderedSame }
    }

    /// The first of `families` that is installed, else the family fontconfig
    /// picks for `generic` ("sans-serif", "monospace").
    package func firstInstalledFamily(of families: [String], generic: String) -> String? {
        for family in families where !faces(inFamily: family).isEmpty { return family }
        return matchedFamily(generic)
    }

    private func matchedFamily(_ generic: String) -> String? {
        guard let pattern = FcNameParse(generic) else { return nil }
        defer { FcPatternDestroy(pattern) }
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(nil, pattern, &result) else { return nil }
        defer { FcPatternDestroy(match) }
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(match, FC_FAMILY, 0, &value) == FcResultMatch, let value else { return nil }
        let family = String(cString: value)
        return faces(inFamily: family).isEmpty ? nil : family
    }

    /// The face of `family` nearest `weight` (fontconfig's scale), upright or
    /// italic as asked, of normal width when the family has one. Nil when the
    /// family is not installed.
    package func face(family: String, weight: Int, italic: Bool) -> InstalledFace? {
        let candidates = faces(inFamily: family)
        guard !candidates.isEmpty else { return nil }
        return candidates.min { a, b in
            distance(a, weight: weight, italic: italic) < distance(b, weight: weight, italic: italic)
        }
    }

    private func distance(_ face: InstalledFace, weight: Int, italic: Bool) -> (Int, Int, Int, String) {
        let widthMiss = face.width == Int(FC_WIDTH_NORMAL) ? 0 : 1
        let slantMiss = (face.slant != Int(FC_SLANT_ROMAN)) == italic ? 0 : 1
        // Ties go to the lighter face, as CSS font matching does below regular.
        return (widthMiss, slantMiss, abs(face.weight - weight) * 2 + (face.weight > weight ? 1 : 0), face.fullName)
    }

    /// The face that answers to `name`: a PostScript name first, then a full
    /// name, then a family name (its regular face). Exact matches only,
    /// ignoring case: an unknown name finds nothing rather than a look-alike.
    package func face(named name: String) -> InstalledFace? {
        func same(_ a: String) -> Bool { a.caseInsensitiveCompare(name) == .orderedSame }
        if let face = faces.first(where: { same($0.postScriptName) }) { return face }
        if let face = faces.first(where: { same($0.fullName) }) { return face }
        return face(family: name, weight: Int(FC_WEIGHT_REGULAR), italic: false)
    }

    // MARK: Fallback

    private struct FallbackKey: Hashable {
        var face: Int
        var scalar: UInt32
    }

    /// Whether the face at `faceIndex` in ``faces`` maps `scalar` to a glyph.
    package func face(at faceIndex: Int, covers scalar: Unicode.Scalar) -> Bool {
        FcCharSetHasChar(charsets[faceIndex].pointer, scalar.value) != 0
    }

    /// The index in ``faces`` of `face`.
    package func index(of face: InstalledFace) -> Int? {
        faces.firstIndex(of: face)
    }

    /// The installed face to draw `scalar` with when the face at `faceIndex`
    /// lacks it: the first face that has it in fontconfig's order of
    /// preference for the primary face (its own family's other styles and
    /// similar families come first), or nil when no installed font has it.
    package func fallbackFace(for scalar: Unicode.Scalar, after faceIndex: Int) -> Int? {
        let key = FallbackKey(face: faceIndex, scalar: scalar.value)
        if let known = fallbackCache.withLock({ $0[key] }) { return known < 0 ? nil : known }
        let found = fallbackOrder(for: faceIndex).first { face(at: $0, covers: scalar) }
        fallbackCache.withLock { $0[key] = found ?? -1 }
        return found
    }

    /// The catalog's faces in fontconfig's order of preference for the face
    /// at `faceIndex`, computed once per face.
    private func fallbackOrder(for faceIndex: Int) -> [Int] {
        if let known = fallbackOrderCache.withLock({ $0[faceIndex] }) { return known }
        var order: [Int] = []
        let primary = faces[faceIndex]
        if let pattern = FcPatternCreate() {
            FcPatternAddString(pattern, FC_FAMILY, primary.family)
            FcPatternAddInteger(pattern, FC_WEIGHT, Int32(primary.weight))
            FcPatternAddInteger(pattern, FC_SLANT, Int32(primary.slant))
            FcConfigSubstitute(nil, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            if let sorted = FcFontSort(nil, pattern, 0, nil, &result) {
                var byLocation: [String: Int] = [:]
                for (i, face) in faces.enumerated() { byLocation["\(face.index):\(face.file)"] = i }
                for i in 0..<Int(sorted.pointee.nfont) {
                    guard let font = sorted.pointee.fonts[i] else { continue }
                    var file: UnsafeMutablePointer<FcChar8>?
                    var index: Int32 = 0
                    guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file else { continue }
                    _ = FcPatternGetInteger(font, FC_INDEX, 0, &index)
                    if let i = byLocation["\(index):\(String(cString: file))"], i != faceIndex, !order.contains(i) {
                        order.append(i)
                    }
                }
                FcFontSetDestroy(sorted)
            }
            FcPatternDestroy(pattern)
        }
        // Faces fontconfig left out of its sort still count, after the others.
        order += faces.indices.filter { $0 != faceIndex && !order.contains($0) }
        fallbackOrderCache.withLock { $0[faceIndex] = order }
        return order
    }
}

/// A fontconfig charset the catalog owns for the life of the process.
private struct CharsetHandle: @unchecked Sendable {
    // Read-only after the catalog is built; fontconfig's charset queries do not mutate it.
    let pointer: OpaquePointer?
    init(_ pointer: OpaquePointer?) { self.pointer = pointer }
}
