import TestExpectations
import Testing
@testable import UIKit

@Suite struct ShapingTests {
    private func shape(_ text: String, font: UIFont = .systemFont(ofSize: 20), kern: CGFloat? = nil) -> ShapedText {
        var shaped = ShapedText()
        shaped.append(text.unicodeScalars, utf16Offset: 0, face: font.face, pointSize: font.pointSize, kern: kern, style: 0)
        return shaped
    }

    private func width(_ text: String, font: UIFont = .systemFont(ofSize: 20), kern: CGFloat? = nil) -> CGFloat {
        shape(text, font: font, kern: kern).advances.reduce(0, +)
    }

    @Test func dejaVuKernsFromGPOS() {
        expectEqual(UIFont.systemFont(ofSize: 12).face.kerning.source, .gpos)
        expectEqual(UIFont.monospacedSystemFont(ofSize: 12, weight: .regular).face.kerning.source, .none)
    }

    @Test(arguments: ["AV", "To", "Ty", "Wa", "LT"])
    func latinPairsAreKernedTighterThanTheirAdvances(pair: String) {
        let kerned = width(pair), unkerned = width(pair, kern: 0)
        #expect(kerned < unkerned - 0.2, "\(pair): \(kerned) vs \(unkerned)")
    }

    /// DejaVu Sans kerns only Latin pairs (in GPOS and in its kern table
    /// alike); Greek and Cyrillic keep their advances. The GPOS reader
    /// itself is script-blind: see the synthetic tables below.
    @Test(arguments: ["ΤΑ", "Γα", "ГА", "Та"])
    func dejaVuDoesNotKernGreekOrCyrillic(pair: String) {
        expectEqual(width(pair), width(pair, kern: 0))
    }

    @Test func unkernedPairsKeepTheirAdvances() {
        expectEqual(width("oo"), width("oo", kern: 0))
        expectEqual(width("ll"), width("ll", kern: 0))
    }

    @Test func kernAttributeAddsToEveryCharacter() {
        let plain = width("AVA")
        #expect(abs(width("AVA", kern: 2) - (plain + 6)) < 1e-9)
    }

    @Test func missingCharactersFallBackToAnotherInstalledFont() {
        // DejaVu Sans has no mathematical Fraktur; DejaVu Math TeX Gyre does.
        let shaped = shape("a\u{1D504}b")
        expectEqual(shaped.count, 3)
        #expect(shaped.glyphs.allSatisfy { $0 != 0 })
        let fallback = shaped.fonts[Int(shaped.fontIndices[1])].face
        expectEqual(fallback.familyName, "DejaVu Math TeX Gyre")
        expectEqual(shaped.fonts[Int(shaped.fontIndices[0])].face.familyName, "DejaVu Sans")
        #expect(shaped.advances[1] > 0)
    }

    @Test func characterNoFontHasIsTheReplacementGlyph() {
        let font = UIFont.systemFont(ofSize: 20)
        let shaped = shape("\u{4E2D}")
        expectEqual(shaped.glyphs, [font.face.glyph(for: "\u{FFFD}")])
        #expect(shaped.glyphs[0] != 0)
        #expect(shaped.advances[0] > 0)
    }

    @Test func combiningMarksComposeWithTheirBase() {
        let decomposed = shape("e\u{301}"), precomposed = shape("é")
        expectEqual(decomposed.glyphs, precomposed.glyphs)
        expectEqual(decomposed.advances, precomposed.advances)
        // No precomposed form: the mark stays, in its base's cluster, with no advance.
        let stacked = shape("q\u{301}")
        expectEqual(stacked.count, 2)
        expectEqual(stacked.clusters, [0, 0])
        expectEqual(stacked.advances[1], 0)
    }

    @Test func controlCharactersTakeNoRoom() {
        expectEqual(width("a\u{0}\u{7}\u{1B}b\u{200B}"), width("ab"))
        expectEqual(shape("a\u{7}").glyphs[1], ShapedText.invisibleGlyph)
    }

    @Test func greekAndCyrillicHaveGlyphsInTheSystemFont() {
        let shaped = shape("Ωμέγα Жизнь")
        #expect(shaped.glyphs.allSatisfy { $0 != 0 })
        expectEqual(Set(shaped.fontIndices).count, 1)
    }

    // MARK: The GPOS reader on tables made by hand

    /// A GPOS table with one `kern` feature of two lookups: glyph pairs
    /// (format 1: 10+20 → −50, 10+30 → −70) and, inside an extension
    /// subtable, class pairs (format 2: glyphs 40…45 before 50…59 → −100,
    /// with an x placement before the x advance in the value record).
    static let handMadeGPOS: [UInt8] = {
        var b: [UInt8] = []
        func u16(_ v: Int) { b += [UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) { u16(v >> 16); u16(v & 0xFFFF) }
        u16(1); u16(0); u16(10); u16(12); u16(28)          // header
        u16(0)                                             // 10: script list
        u16(1); b += Array("kern".utf8); u16(8)            // 12: feature list
        u16(0); u16(2); u16(0); u16(1)                     // 20: feature
        u16(2); u16(6); u16(42)                            // 28: lookup list
        u16(2); u16(0); u16(1); u16(8)                     // 34: lookup 0
        u16(1); u16(12); u16(0x0004); u16(0); u16(1); u16(18) // 42: pair pos format 1
        u16(1); u16(1); u16(10)                            // 54: coverage
        u16(2); u16(20); u16(0xFFCE); u16(30); u16(0xFFBA) // 60: pair set (−50, −70)
        u16(9); u16(0); u16(1); u16(8)                     // 70: lookup 1 (extension)
        u16(1); u16(2); u32(8)                             // 78: extension subtable
        u16(2); u16(32); u16(0x0005); u16(0); u16(42); u16(60); u16(2); u16(2) // 86: pair pos format 2
        for (c1, c2) in [(0, 0), (0, 1), (1, 0), (1, 1)] { u16(7); u16(c1 == 1 && c2 == 1 ? 0xFF9C : 0) }
        u16(2); u16(1); u16(40); u16(45); u16(0)           // 118: coverage
        u16(1); u16(40); u16(6); for _ in 0..<6 { u16(1) }  // 128: class def 1
        u16(2); u16(1); u16(50); u16(59); u16(1)           // 146: class def 2
        return b
    }()

    @Test func gposGlyphAndClassPairs() {
        let kerning = PairKerning(gpos: Self.handMadeGPOS)
        expectEqual(kerning.source, .gpos)
        expectEqual(kerning.gposAdjustment(10, 20), -50)
        expectEqual(kerning.gposAdjustment(10, 30), -70)
        expectEqual(kerning.gposAdjustment(10, 25), 0)
        expectEqual(kerning.gposAdjustment(20, 10), 0)
        expectEqual(kerning.gposAdjustment(42, 55), -100)
        expectEqual(kerning.gposAdjustment(45, 50), -100)
        expectEqual(kerning.gposAdjustment(42, 60), 0)
        expectEqual(kerning.gposAdjustment(39, 55), 0)
    }

    @Test func damagedGPOSTablesGiveNoKerningAndNoCrash() {
        let table = Self.handMadeGPOS
        for length in 0..<table.count {
            let kerning = PairKerning(gpos: Array(table[..<length]))
            for (a, b) in [(10, 20), (10, 30), (42, 55)] { _ = kerning.gposAdjustment(CGGlyph(a), CGGlyph(b)) }
        }
        expectEqual(PairKerning(gpos: []).source, .none)
        // Every byte set to every troublesome value, one at a time.
        for index in table.indices {
            for value: UInt8 in [0, 0x7F, 0xFF] {
                var damaged = table
                damaged[index] = value
                let kerning = PairKerning(gpos: damaged)
                for (a, b) in [(10, 20), (42, 55), (0xFFFF, 0xFFFF)] { _ = kerning.gposAdjustment(CGGlyph(a), CGGlyph(b)) }
            }
        }
    }
}
