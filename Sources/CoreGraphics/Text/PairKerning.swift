import CFreeType

/// Where a font's pair kerning comes from.
package enum KerningSource: Sendable, Equatable {
    /// The `kern` feature of the OpenType GPOS table (pair adjustment
    /// lookups). DejaVu's fonts kern Latin, Greek and Cyrillic there.
    case gpos
    /// The legacy TrueType `kern` table, read through FreeType. DejaVu Sans
    /// has one too, but only with Latin pairs, so GPOS is preferred.
    case kernTable
    case none
}

/// A font's pair kerning: the horizontal adjustment, in design units, to
/// the advance of the first glyph of a pair.
///
/// The GPOS reader takes the lookups of every `kern` feature of the font,
/// whatever the script (a font kerns a pair the same way in every script
/// that uses its glyphs), and within them pair adjustment subtables of
/// both formats (glyph pairs and class pairs), also when wrapped in
/// extension subtables. Only the first glyph's x advance is used; that is
/// what horizontal kerning is. Every read is bounds-checked: a damaged
/// table gives zero adjustments, never a crash.
package struct PairKerning: Sendable {
    package let source: KerningSource
    private let table: OpenTypeBytes
    private let subtables: [PairAdjustmentSubtable]

    /// More pair subtables than any real font uses; a table claiming more is
    /// damaged, and looking a pair up must stay cheap.
    static let maximumSubtables = 1024

    init(face: FreeTypeFace) {
        if let bytes = face.table("GPOS") {
            self.init(gpos: bytes)
            if source == .gpos { return }
        }
        let hasKernTable = face.face.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING) != 0
        self.init(source: hasKernTable ? .kernTable : .none)
    }

    private init(source: KerningSource) {
        self.source = source
        table = OpenTypeBytes([])
        subtables = []
    }

    /// Kerning read from the bytes of a GPOS table.
    package init(gpos bytes: [UInt8]) {
        let table = OpenTypeBytes(bytes)
        var subtables: [PairAdjustmentSubtable] = []
        let featureList = Int(table.u16(6)), lookupList = Int(table.u16(8))
        var lookupIndices: [Int] = []
        let featureCount = Int(table.u16(featureList))
        for record in 0..<featureCount {
            let at = featureList + 2 + record * 6
            guard table.tag(at) == "kern" else { continue }
            let feature = featureList + Int(table.u16(at + 4))
            let count = Int(table.u16(feature + 2))
            for i in 0..<count { lookupIndices.append(Int(table.u16(feature + 4 + 2 * i))) }
        }
        let lookupCount = Int(table.u16(lookupList))
        // Lookups apply in the order of the lookup list, each once.
        for index in Set(lookupIndices).sorted() where index < lookupCount {
            let lookup = lookupList + Int(table.u16(lookupList + 2 + 2 * index))
            let type = table.u16(lookup)
            let count = Int(table.u16(lookup + 4))
            for i in 0..<count where subtables.count < Self.maximumSubtables {
                var subtable = lookup + Int(table.u16(lookup + 6 + 2 * i))
                if type == 9 {
                    guard table.u16(subtable + 2) == 2 else { continue }
                    subtable += Int(table.u32(subtable + 4))
                } else if type != 2 {
                    continue
                }
                if let pair = PairAdjustmentSubtable(table: table, offset: subtable, lookup: index) {
                    subtables.append(pair)
                }
            }
        }
        self.table = table
        self.subtables = subtables
        source = subtables.isEmpty ? .none : .gpos
    }

    /// The adjustment to the advance of `first` when `second` follows it, in
    /// design units, from the GPOS table (``KerningSource/kernTable`` pairs
    /// are FreeType's, read by the face's state).
    package func gposAdjustment(_ first: CGGlyph, _ second: CGGlyph) -> Int32 {
        var total: Int32 = 0
        var appliedLookup = -1
        for subtable in subtables where subtable.lookup != appliedLookup {
            if let value = subtable.adjustment(first, second, in: table) {
                total += value
                appliedLookup = subtable.lookup
            }
        }
        return total
    }
}

/// One pair adjustment subtable (GPOS lookup type 2), format 1 or 2.
private struct PairAdjustmentSubtable: Sendable {
    let offset: Int
    let format: UInt16
    let lookup: Int
    let coverage: Int
    let valueFormat1: UInt16
    let valueFormat2: UInt16
    /// The byte offset of XAdvance within the first value record, or nil if it has none.
    let xAdvanceOffset: Int?
    let recordSize: Int

    init?(table: OpenTypeBytes, offset: Int, lookup: Int) {
        format = table.u16(offset)
        guard format == 1 || format == 2 else { return nil }
        self.offset = offset
        self.lookup = lookup
        coverage = offset + Int(table.u16(offset + 2))
        valueFormat1 = table.u16(offset + 4)
        valueFormat2 = table.u16(offset + 6)
        let size1 = 2 * valueFormat1.nonzeroBitCount, size2 = 2 * valueFormat2.nonzeroBitCount
        xAdvanceOffset = valueFormat1 & 0x0004 != 0 ? 2 * (valueFormat1 & 0x0003).nonzeroBitCount : nil
        recordSize = size1 + size2
    }

    /// The adjustment if this subtable covers the pair, else nil.
    func adjustment(_ first: CGGlyph, _ second: CGGlyph, in table: OpenTypeBytes) -> Int32? {
        guard let coverageIndex = table.coverageIndex(of: first, coverageAt: coverage) else { return nil }
        if format == 1 {
            guard coverageIndex < Int(table.u16(offset + 8)) else { return nil }
            let pairSet = offset + Int(table.u16(offset + 10 + 2 * coverageIndex))
            let count = Int(table.u16(pairSet))
            let stride = 2 + recordSize
            // Records are sorted by their second glyph.
            var low = 0, high = count - 1
            while low <= high {
                let middle = (low + high) / 2
                let record = pairSet + 2 + middle * stride
                let glyph = table.u16(record)
                if glyph == second { return xAdvance(at: record + 2, in: table) }
                if glyph < second { low = middle + 1 } else { high = middle - 1 }
            }
            return nil
        }
        let class1 = Int(table.glyphClass(of: first, classDefAt: offset + Int(table.u16(offset + 8))))
        let class2 = Int(table.glyphClass(of: second, classDefAt: offset + Int(table.u16(offset + 10))))
        let class1Count = Int(table.u16(offset + 12)), class2Count = Int(table.u16(offset + 14))
        guard class1 < class1Count, class2 < class2Count else { return 0 }
        let record = offset + 16 + (class1 * class2Count + class2) * recordSize
        return xAdvance(at: record, in: table)
    }

    private func xAdvance(at record: Int, in table: OpenTypeBytes) -> Int32 {
        guard let xAdvanceOffset else { return 0 }
        return Int32(Int16(bitPattern: table.u16(record + xAdvanceOffset)))
    }
}

/// Big-endian reads from an OpenType table; a read outside the table gives 0.
struct OpenTypeBytes: Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func u16(_ at: Int) -> UInt16 {
        guard at >= 0, at + 2 <= bytes.count else { return 0 }
        return UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
    }

    func u32(_ at: Int) -> UInt32 {
        UInt32(u16(at)) << 16 | UInt32(u16(at + 2))
    }

    func tag(_ at: Int) -> String {
        guard at >= 0, at + 4 <= bytes.count else { return "" }
        return String(decoding: bytes[at..<at + 4], as: UTF8.self)
    }

    /// The coverage index of `glyph` in the coverage table at `at`, or nil.
    func coverageIndex(of glyph: CGGlyph, coverageAt at: Int) -> Int? {
        let format = u16(at), count = Int(u16(at + 2))
        var low = 0, high = count - 1
        switch format {
        case 1:
            while low <= high {
                let middle = (low + high) / 2
                let value = u16(at + 4 + 2 * middle)
                if value == glyph { return middle }
                if value < glyph { low = middle + 1 } else { high = middle - 1 }
            }
        case 2:
            while low <= high {
                let middle = (low + high) / 2
                let record = at + 4 + 6 * middle
                let start = u16(record), end = u16(record + 2)
                if glyph < start { high = middle - 1 } else if glyph > end { low = middle + 1 } else {
                    return Int(u16(record + 4)) + Int(glyph - start)
                }
            }
        default:
            break
        }
        return nil
    }

    /// The class of `glyph` in the class definition table at `at` (0 when not listed).
    func glyphClass(of glyph: CGGlyph, classDefAt at: Int) -> UInt16 {
        switch u16(at) {
        case 1:
            let start = u16(at + 2), count = u16(at + 4)
            guard glyph >= start, Int(glyph - start) < Int(count) else { return 0 }
            return u16(at + 6 + 2 * Int(glyph - start))
        case 2:
            var low = 0, high = Int(u16(at + 2)) - 1
            while low <= high {
                let middle = (low + high) / 2
                let record = at + 4 + 6 * middle
                let start = u16(record), end = u16(record + 2)
                if glyph < start { high = middle - 1 } else if glyph > end { low = middle + 1 } else { return u16(record + 4) }
            }
            return 0
        default:
            return 0
        }
    }
}
