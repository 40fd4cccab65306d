import Foundation

/// Glyphs of shaped text, in parallel arrays, ready to be broken into lines
/// and drawn: which glyph of which face at which size, its advance (pair
/// kerning and extra kern included) and the text it came from.
///
/// Shaping here is what Latin, Greek and Cyrillic need: one glyph per
/// character, a combining mark composed with its base when the font has the
/// precomposed character (else drawn over it with the mark's own zero
/// advance), pair kerning from the font, and, for a character the font
/// lacks, the first installed font that has it (fontconfig's order of
/// preference); when no font has it, U+FFFD REPLACEMENT CHARACTER.
package struct ShapedText: Sendable {
    package var glyphs: [CGGlyph] = []
    /// The advance after each glyph, in points.
    package var advances: [CGFloat] = []
    /// The UTF-16 offset, in the shaped string, of the character each glyph belongs to.
    package var clusters: [Int] = []
    /// Index into ``fonts`` of each glyph's font.
    package var fontIndices: [UInt16] = []
    /// Index of the style run each glyph belongs to (the caller's attributes).
    package var styles: [UInt16] = []
    /// What kind of character each glyph shows, for line breaking.
    package var kinds: [CharacterKind] = []
    /// The faces and sizes glyphs use.
    package var fonts: [SizedFace] = []

    package init() {}

    package var count: Int { glyphs.count }

    /// Makes room for `count` glyphs in all, so that appending them grows
    /// none of the arrays step by step.
    package mutating func reserveCapacity(_ count: Int) {
        glyphs.reserveCapacity(count)
        advances.reserveCapacity(count)
        clusters.reserveCapacity(count)
        fontIndices.reserveCapacity(count)
        styles.reserveCapacity(count)
        kinds.reserveCapacity(count)
    }

    /// The index in ``fonts`` of `face` at `pointSize`, adding it if new.
    mutating func fontIndex(_ face: FontFace, _ pointSize: CGFloat) -> UInt16 {
        if let i = fonts.lastIndex(where: { $0.face === face && $0.pointSize == pointSize }) { return UInt16(i) }
        fonts.append(SizedFace(face: face, pointSize: pointSize))
        return UInt16(fonts.count - 1)
    }

    /// Appends the glyphs of `text` (at UTF-16 offset `utf16Offset` of the
    /// whole string) drawn with `face` at `pointSize`.
    ///
    /// `kern` is Core Text's kern attribute: nil uses the font's pair
    /// kerning; 0 turns it off; any other value is added, in points, to the
    /// advance of every character, on top of the font's kerning.
    package mutating func append(_ scalars: String.UnicodeScalarView, utf16Offset: Int, face: FontFace, pointSize: CGFloat,
                                 kern: CGFloat?, style: UInt16) {
        append(scalars[...], utf16Offset: utf16Offset, face: face, pointSize: pointSize, kern: kern, style: style)
    }

    /// Appends the glyphs of a part of a string; see the other `append`.
    /// (A concrete type, not any sequence of scalars: a generic function
    /// called from another module would step through the string by
    /// protocol witnesses, which cost more than the shaping itself.)
    package mutating func append(_ scalars: Substring.UnicodeScalarView, utf16Offset: Int, face: FontFace, pointSize: CGFloat,
                                 kern: CGFloat?, style: UInt16) {
        let primary = fontIndex(face, pointSize)
        let first = glyphs.count
        var missing: [(index: Int, scalar: Unicode.Scalar)] = []
        var offset = utf16Offset
        let scale = pointSize / CGFloat(face.unitsPerEm)
        let extra = kern ?? 0
        let usesPairKerning = kern != 0
        face.withFace { state in
            var previousScalar: Unicode.Scalar?
            for scalar in scalars {
                defer { offset += scalar.utf16.count }
                var kind = CharacterKind(scalar)
                // CR LF is one line break.
                if kind == .newline, scalar == "\n", previousScalar == "\r" { kind = .invisible }
                if kind == .invisible || kind == .newline {
                    previousScalar = scalar
                    append(Self.invisibleGlyph, 0, cluster: offset, font: primary, style: style, kind: kind)
                    continue
                }
                if kind == .mark, let base = previousScalar, glyphs.count > first,
                   let composed = Self.composed(base, scalar) {
                    let glyph = state.glyph(for: composed)
                    if glyph != 0 {
                        glyphs[glyphs.count - 1] = glyph
                        advances[advances.count - 1] = CGFloat(state.advance(of: glyph)) * scale + extra
                        previousScalar = composed
                        continue
                    }
                }
                let glyph = state.glyph(for: scalar)
                let cluster = kind == .mark && glyphs.count > first ? clusters[clusters.count - 1] : offset
                if glyph == 0 { missing.append((glyphs.count, scalar)) }
                let advance = glyph == 0 ? 0 : CGFloat(state.advance(of: glyph)) * scale
                append(glyph, advance + (kind == .mark ? 0 : extra), cluster: cluster, font: primary, style: style, kind: kind)
                previousScalar = scalar
            }
            guard usesPairKerning, glyphs.count - first > 1 else { return }
            for i in first..<(glyphs.count - 1) where fontIndices[i] == primary && glyphs[i] != 0 {
                let next = glyphs[i + 1]
                guard next != 0, next != Self.invisibleGlyph, glyphs[i] != Self.invisibleGlyph else { continue }
                let adjustment = state.kerning(glyphs[i], next)
                if adjustment != 0 { advances[i] += CGFloat(adjustment) * scale }
            }
        }
        for (index, scalar) in missing { substitute(at: index, scalar: scalar, primary: face, pointSize: pointSize, extra: extra) }
    }

    /// Draws a character `primary` lacks with another font, or the replacement character.
    private mutating func substitute(at index: Int, scalar: Unicode.Scalar, primary: FontFace, pointSize: CGFloat, extra: CGFloat) {
        let catalog = FontCatalog.shared
        let replacement: Unicode.Scalar = "\u{FFFD}"
        var choice: (face: FontFace, glyph: CGGlyph)?
        for wanted in [scalar, replacement] {
            if wanted == replacement, primary.glyph(for: replacement) != 0 {
                choice = (primary, primary.glyph(for: replacement))
                break
            }
            if let other = catalog.fallbackFace(for: wanted, after: primary.catalogIndex),
               let face = FontFace.font(atCatalogIndex: other) {
                let glyph = face.glyph(for: wanted)
                if glyph != 0 { choice = (face, glyph); break }
            }
        }
        guard let choice else { return }
        glyphs[index] = choice.glyph
        fontIndices[index] = fontIndex(choice.face, pointSize)
        let advance = CGFloat(choice.face.advance(of: choice.glyph)) * pointSize / CGFloat(choice.face.unitsPerEm)
        advances[index] = advance + (kinds[index] == .mark ? 0 : extra)
    }

    private mutating func append(_ glyph: CGGlyph, _ advance: CGFloat, cluster: Int, font: UInt16, style: UInt16, kind: CharacterKind) {
        glyphs.append(glyph)
        advances.append(advance)
        clusters.append(cluster)
        fontIndices.append(font)
        styles.append(style)
        kinds.append(kind)
    }

    /// Stands for a character that draws nothing and takes no room.
    package static let invisibleGlyph = CGGlyph.max

    /// The precomposed character for `base` followed by `mark`, if Unicode has one.
    private static func composed(_ base: Unicode.Scalar, _ mark: Unicode.Scalar) -> Unicode.Scalar? {
        var pair = String.UnicodeScalarView()
        pair.append(base)
        pair.append(mark)
        let scalars = String(pair).precomposedStringWithCanonicalMapping.unicodeScalars
        return scalars.count == 1 ? scalars.first : nil
    }
}

/// A face at a size in points.
package struct SizedFace: Sendable {
    package var face: FontFace
    package var pointSize: CGFloat
}

/// What a character is to line breaking and drawing.
package enum CharacterKind: UInt8, Sendable {
    /// Letters, digits, punctuation: part of a word.
    case word
    /// A space: lines break after it, and it hangs at the end of a line.
    case space
    /// A tab: a space that moves to the next tab stop.
    case tab
    /// A hyphen or dash: a line may break after it.
    case hyphen
    /// A combining mark, drawn with the character before it.
    case mark
    /// A line or paragraph separator: nothing drawn; the paragraph ends.
    case newline
    /// A control or format character: nothing drawn, no room taken.
    case invisible

    init(_ scalar: Unicode.Scalar) {
        // Printable ASCII but the space and the hyphen: part of a word,
        // without asking Unicode's tables (most text is mostly this).
        if scalar.value > 0x20, scalar.value < 0x7F, scalar.value != 0x2D {
            self = .word
            return
        }
        switch scalar.value {
        case 0x20, 0x2000...0x200A, 0x205F, 0x3000: self = .space
        case 0x09: self = .tab
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: self = .newline
        case 0x2D, 0x2010, 0x2012, 0x2013, 0x2014: self = .hyphen
        case 0x00...0x1F, 0x7F...0x9F, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F, 0xFEFF, 0xFE00...0xFE0F:
            self = .invisible
        default:
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark: self = .mark
            default: self = .word
            }
        }
    }
}
