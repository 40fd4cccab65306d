import TestExpectations
import Testing
import HID

private let events: [HIDEvent] = [
    .digitizer(DigitizerFrame(timestamp: 10.0, contacts: [DigitizerContact(identifier: 1, phase: .began, x: 100, y: 200)])),
    .digitizer(DigitizerFrame(timestamp: 10.016, contacts: [
        DigitizerContact(identifier: 1, phase: .moved, x: 110, y: 200),
        DigitizerContact(identifier: 2, phase: .began, x: 300, y: 600, kind: .stylus, force: 1.5, maximumPossibleForce: 6),
    ])),
    .button(ButtonEvent(timestamp: 10.020, usagePage: 0x07, usage: 0x16, isDown: true, modifierFlags: 1 << 17)),
    .motion(MotionEvent(timestamp: 10.5, kind: .shake, phase: .began)),
]

private func littleEndian32(_ bytes: [UInt8], at offset: Int) -> Int {
    (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
}

/// Byte offsets of each record in `file`.
private func recordOffsets(_ file: [UInt8]) -> [Int] {
    var offsets: [Int] = []
    var offset = HIDRecording.headerSize
    while offset < file.count {
        offsets.append(offset)
        offset += HIDRecording.recordPrefixSize + littleEndian32(file, at: offset)
    }
    return offsets
}

@Suite struct HIDRecordingTests {
    @Test func eventsComeBackAsWritten() {
        let file = HIDRecording.encode(events)
        let (read, error) = HIDRecording.decode(file)
        #expect(error == nil)
        expectEqual(read, events)
    }

    @Test func theHeaderIsTheDocumentedLayout() {
        let header = HIDRecording.header()
        expectEqual(header.count, 16)
        expectEqual(Array(header[0..<8]), Array("OUIKHIDR".utf8))
        #expect(header[8] == 1 && header[9] == 0 && header[10] == 0 && header[11] == 0)
        // The zlib CRC-32 of those twelve bytes, computed independently.
        expectEqual(littleEndian32(header, at: 12), 0x4BEE_747E)
    }

    @Test func aRecordIsItsLengthChecksumAndWirePacket() {
        let record = HIDRecording.record(events[2])
        let packet = HIDPacketEncoder().encode(events[2])
        expectEqual(littleEndian32(record, at: 0), packet.count)
        expectEqual(Array(record[8...]), packet)
    }

    @Test func aFileCutShortKeepsEveryWholeRecordAndSaysWhere() {
        let file = HIDRecording.encode(events)
        let offsets = recordOffsets(file)
        for cut in [offsets[3] + 3, offsets[3] + 20, file.count - 1] {
            let (read, error) = HIDRecording.decode(file.prefix(cut))
            expectEqual(read, Array(events.prefix(3)))
            guard case .truncated(let record, let offset, _, let available)? = error else {
                Issue.record("expected a truncation, got \(String(describing: error))")
                continue
            }
            expectEqual(record, 3)
            expectEqual(offset, offsets[3])
            expectEqual(available, cut - offsets[3])
            #expect(error!.description.contains("record 3 at byte \(offsets[3])"))
        }
    }

    @Test func aFlippedBitIsFoundByItsRecordsChecksum() {
        var file = HIDRecording.encode(events)
        let offsets = recordOffsets(file)
        file[offsets[1] + 8 + 20] ^= 0x04
        let (read, error) = HIDRecording.decode(file)
        expectEqual(read, [events[0]])
        expectEqual(error, .checksumMismatch(record: 1, offset: offsets[1]))
        expectEqual(error?.description, "record 1 at byte \(offsets[1]) is damaged (checksum mismatch); the 1 records before it were read")
    }

    @Test func anImpossibleLengthIsDamageNotAnAllocation() {
        var file = HIDRecording.encode(events)
        let offsets = recordOffsets(file)
        file[offsets[2] + 3] = 0xFF
        let (read, error) = HIDRecording.decode(file)
        expectEqual(read, Array(events.prefix(2)))
        expectEqual(error, .badRecordLength(record: 2, offset: offsets[2], length: littleEndian32(file, at: offsets[2])))
    }

    @Test func aRecordWithAGoodChecksumButNoEventIsReported() {
        var file = HIDRecording.header()
        let payload: [UInt8] = Array("HID1".utf8) + [1, 9, 0, 0, 0, 0, 0, 0]  // kind 9 does not exist
        // The record written by hand: length, CRC-32 of the payload, payload.
        let crc = crc32(payload)
        file += [UInt8(payload.count), 0, 0, 0] + (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) } + payload
        let (read, error) = HIDRecording.decode(file)
        #expect(read.isEmpty)
        expectEqual(error, .undecodable(record: 0, offset: 16, .unknownKind(9)))
    }

    @Test func headersThatAreNotARecordingsAreRefused() {
        expectEqual(HIDRecording.decode(Array("HID1 not a recording".utf8)).error, .notARecording)
        expectEqual(HIDRecording.decode(Array("OUIK".utf8)).error, .truncatedHeader(size: 4))
        expectEqual(HIDRecording.decode(Array("hello".utf8)).error, .notARecording)
        expectEqual(HIDRecording.decode([]).error, .notARecording)
        var file = HIDRecording.encode(events)
        file[13] ^= 1
        #expect(HIDRecording.decode(file) == ([], .headerChecksumMismatch))
        var newer = Array(HIDRecording.header()[0..<12])
        newer[8] = 2
        let crc = crc32(newer)
        newer += (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) }
        expectEqual(HIDRecording.decode(newer).error, .unsupportedVersion(2))
        expectEqual(HIDRecording.decode(newer).error?.description, "recording of unsupported version 2 (this reader reads version 1)")
    }

    @Test func aReaderGivenTheBytesAFewAtATimeReadsWhatTheWholeFileReads() {
        let file = HIDRecording.encode(events)
        let offsets = recordOffsets(file)
        var damaged = file
        damaged[offsets[2] + 9] ^= 0x01
        // Whole, damaged, cut in a record, cut in a header, too short to tell, not one.
        let files = [file, damaged, Array(file.prefix(offsets[3] + 5)), Array(file.prefix(9)), Array(file.prefix(3)), Array("hello, world".utf8), []]
        for bytes in files {
            for step in [1, 7, 100] {
                var reader = HIDRecordingReader()
                var read: [HIDEvent] = []
                for start in stride(from: 0, to: bytes.count, by: step) {
                    reader.read(bytes[start..<min(start + step, bytes.count)], into: &read)
                }
                let error = reader.finish()
                let whole = HIDRecording.decode(bytes)
                expectEqual(read, whole.events, "\(bytes.count) bytes, \(step) at a time")
                expectEqual(error, whole.error, "\(bytes.count) bytes, \(step) at a time")
                expectEqual(reader.recordCount, whole.events.count)
            }
        }
    }

    @Test func aReaderReportsDamageAsSoonAsItsRecordHasCome() {
        var file = HIDRecording.encode(events)
        let offsets = recordOffsets(file)
        file[offsets[1] + 4] ^= 0xFF
        var reader = HIDRecordingReader()
        var read: [HIDEvent] = []
        reader.read(file.prefix(offsets[2]), into: &read)
        expectEqual(read, [events[0]])
        expectEqual(reader.error, .checksumMismatch(record: 1, offset: offsets[1]))
        // Nothing after the damage is read.
        reader.read(file[offsets[2]...], into: &read)
        expectEqual(read, [events[0]])
    }
}

/// CRC-32 (zlib's), bit by bit: an independent check of the table-driven one.
private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}
