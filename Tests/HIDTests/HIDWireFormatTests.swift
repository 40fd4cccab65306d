import TestExpectations
import Testing
import HID

// MARK: - Helpers

/// Everything a decoder yields for `bytes` fed in one slice.
private func decodeAll(_ bytes: [UInt8]) -> [Result<HIDEvent, HIDDecodingError>] {
    var decoder = HIDPacketDecoder()
    decoder.append(bytes)
    return drain(&decoder)
}

/// Everything a decoder yields for `bytes` fed in slices of the given sizes,
/// cycling through `sliceSizes`, with `next()` drained after every slice.
private func decodeAll(_ bytes: [UInt8], sliceSizes: [Int]) -> [Result<HIDEvent, HIDDecodingError>] {
    var decoder = HIDPacketDecoder()
    var results: [Result<HIDEvent, HIDDecodingError>] = []
    var offset = 0
    var sliceIndex = 0
    while offset < bytes.count {
        let size = min(sliceSizes[sliceIndex % sliceSizes.count], bytes.count - offset)
        decoder.append(bytes[offset..<(offset + size)])
        offset += size
        sliceIndex += 1
        results += drain(&decoder)
    }
    return results
}

private func drain(_ decoder: inout HIDPacketDecoder) -> [Result<HIDEvent, HIDDecodingError>] {
    var results: [Result<HIDEvent, HIDDecodingError>] = []
    while let result = decoder.next() { results.append(result) }
    return results
}

private func encode(_ events: [HIDEvent]) -> [UInt8] {
    var bytes: [UInt8] = []
    for event in events { HIDPacketEncoder().encode(event, into: &bytes) }
    return bytes
}

private func events(_ results: [Result<HIDEvent, HIDDecodingError>]) -> [HIDEvent] {
    results.compactMap { if case .success(let event) = $0 { event } else { nil } }
}

private func errors(_ results: [Result<HIDEvent, HIDDecodingError>]) -> [HIDDecodingError] {
    results.compactMap { if case .failure(let error) = $0 { error } else { nil } }
}

private func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    (0..<MemoryLayout<T>.size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}

/// A header written by hand from the documented layout, not by the encoder.
private func header(version: UInt8 = 1, kind: UInt8, length: UInt32) -> [UInt8] {
    [0x48, 0x49, 0x44, 0x31, version, kind, 0, 0] + littleEndian(length)
}

private let oneFinger = HIDEvent.digitizer(DigitizerFrame(timestamp: 1.5, contacts: [
    DigitizerContact(identifier: 7, phase: .began, x: 10.25, y: -3.5),
]))

private let threeContacts = HIDEvent.digitizer(DigitizerFrame(timestamp: 123.456789, contacts: [
    DigitizerContact(identifier: 1, phase: .began, x: 0, y: 0, kind: .finger,
                     majorRadius: 11.5, majorRadiusTolerance: 1.25, force: 0.5, maximumPossibleForce: 6.67),
    DigitizerContact(identifier: 0xFFFF_FFFF, phase: .moved, x: 1e300, y: -1e-300, kind: .stylus,
                     majorRadius: 0, majorRadiusTolerance: 0, force: 4, maximumPossibleForce: 4.1666),
    DigitizerContact(identifier: 42, phase: .cancelled, x: 767.999, y: 1023.5, kind: .indirectPointer),
]))

private let keyDown = HIDEvent.button(ButtonEvent(timestamp: 2, usagePage: 0x07, usage: 0x28, isDown: true, modifierFlags: 0x8000_0001))
private let shake = HIDEvent.motion(MotionEvent(timestamp: 3.25, kind: .shake, phase: .began))

// MARK: - Round trips

@Suite struct HIDRoundTripTests {
    @Test func aFrameTooLargeForOnePacketIsRefusedNotCut() async {
        // 1,639 contacts make a payload past the 64 KiB a packet may have;
        // 65,536 would wrap the count to 0. Either is refused, never written.
        await #expect(processExitsWith: .failure) {
            let contacts = (0..<1_639).map { DigitizerContact(identifier: UInt32($0), phase: .began, x: 0, y: 0) }
            _ = HIDPacketEncoder().encode(.digitizer(DigitizerFrame(timestamp: 0, contacts: contacts)))
        }
        let fitting = (0..<HIDWireFormat.maximumContactsPerFrame).map { DigitizerContact(identifier: UInt32($0), phase: .began, x: 0, y: 0) }
        let packet = HIDPacketEncoder().encode(.digitizer(DigitizerFrame(timestamp: 0, contacts: fitting)))
        expectEqual(packet.count, HIDWireFormat.headerSize + 12 + 40 * 1_638)
        #expect(packet.count - HIDWireFormat.headerSize <= HIDWireFormat.maximumPayloadSize)
    }

    @Test func digitizerFrameWithNoContacts() {
        let event = HIDEvent.digitizer(DigitizerFrame(timestamp: 0.125, contacts: []))
        let bytes = HIDPacketEncoder().encode(event)
        // 12-byte header + 12-byte digitizer prefix, no contacts.
        expectEqual(bytes.count, 24)
        expectEqual(decodeAll(bytes), [.success(event)])
    }

    @Test func digitizerFrameWithOneContact() {
        let bytes = HIDPacketEncoder().encode(oneFinger)
        // 12 + 12 + 1 × 40
        expectEqual(bytes.count, 64)
        expectEqual(decodeAll(bytes), [.success(oneFinger)])
    }

    @Test func digitizerFrameWithSeveralContacts() {
        let bytes = HIDPacketEncoder().encode(threeContacts)
        // 12 + 12 + 3 × 40
        expectEqual(bytes.count, 144)
        expectEqual(decodeAll(bytes), [.success(threeContacts)])
    }

    @Test func decodingIntoHandedBackStorageGivesTheSameFramesWithoutNewStorage() {
        var decoder = HIDPacketDecoder()
        decoder.append(encode([threeContacts, oneFinger, keyDown, oneFinger]))
        var spare: [DigitizerContact] = []
        var decoded: [HIDEvent] = []
        var storageAddresses: [UnsafeRawPointer?] = []
        while let result = decoder.next(reusing: &spare) {
            guard case .success(let event) = result else { Issue.record("unexpected \(result)"); continue }
            decoded.append(event)
            if case .digitizer(let frame) = event {
                storageAddresses.append(frame.contacts.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) })
                #expect(spare.isEmpty)
                // Handed back once handled: only `spare` holds it when the next frame comes.
                spare = frame.contacts
                let copy = frame.contacts.map { $0 }
                decoded[decoded.count - 1] = .digitizer(DigitizerFrame(timestamp: frame.timestamp, contacts: copy))
            }
        }
        expectEqual(decoded, [threeContacts, oneFinger, keyDown, oneFinger])
        // The three-contact frame's storage is large enough for every later frame.
        #expect(storageAddresses.count == 3 && Set(storageAddresses).count == 1)
    }

    @Test(arguments: DigitizerContact.Phase.allCases)
    func everyContactPhase(_ phase: DigitizerContact.Phase) {
        let event = HIDEvent.digitizer(DigitizerFrame(timestamp: 9, contacts: [
            DigitizerContact(identifier: 3, phase: phase, x: 5, y: 6),
        ]))
        expectEqual(decodeAll(HIDPacketEncoder().encode(event)), [.success(event)])
    }

    @Test(arguments: DigitizerContact.Kind.allCases)
    func everyContactKind(_ kind: DigitizerContact.Kind) {
        let event = HIDEvent.digitizer(DigitizerFrame(timestamp: 9, contacts: [
            DigitizerContact(identifier: 3, phase: .moved, x: 5, y: 6, kind: kind),
        ]))
        expectEqual(decodeAll(HIDPacketEncoder().encode(event)), [.success(event)])
    }

    @Test func allPhasesAndKindsInOneFrame() {
        var contacts: [DigitizerContact] = []
        var identifier: UInt32 = 0
        for phase in DigitizerContact.Phase.allCases {
            for kind in DigitizerContact.Kind.allCases {
                contacts.append(DigitizerContact(identifier: identifier, phase: phase,
                                                 x: Double(identifier) * 1.5, y: -Double(identifier), kind: kind,
                                                 majorRadius: Float(identifier), force: Float(identifier) / 8))
                identifier += 1
            }
        }
        let event = HIDEvent.digitizer(DigitizerFrame(timestamp: 77, contacts: contacts))
        let bytes = HIDPacketEncoder().encode(event)
        expectEqual(bytes.count, 24 + 20 * 40)
        expectEqual(decodeAll(bytes), [.success(event)])
    }

    @Test(arguments: [true, false])
    func buttonEvent(_ isDown: Bool) {
        let event = HIDEvent.button(ButtonEvent(timestamp: 4.75, usagePage: 0x0C, usage: 0xCD, isDown: isDown, modifierFlags: 0xDEAD_BEEF))
        let bytes = HIDPacketEncoder().encode(event)
        expectEqual(bytes.count, 12 + 20)
        expectEqual(decodeAll(bytes), [.success(event)])
    }

    @Test(arguments: MotionEvent.Phase.allCases)
    func motionEvent(_ phase: MotionEvent.Phase) {
        let event = HIDEvent.motion(MotionEvent(timestamp: 8, kind: .shake, phase: phase))
        let bytes = HIDPacketEncoder().encode(event)
        expectEqual(bytes.count, 12 + 12)
        expectEqual(decodeAll(bytes), [.success(event)])
    }

    @Test func timestampIsTheEventsOwn() {
        expectEqual(oneFinger.timestamp, 1.5)
        expectEqual(keyDown.timestamp, 2)
        expectEqual(shake.timestamp, 3.25)
    }

    @Test func encoderMatchesTheDocumentedLayout() {
        let event = HIDEvent.digitizer(DigitizerFrame(timestamp: 1.0, contacts: [
            DigitizerContact(identifier: 0x0102_0304, phase: .ended, x: 2.0, y: -0.5, kind: .stylus,
                             majorRadius: 1.0, majorRadiusTolerance: 2.0, force: 0.5, maximumPossibleForce: -1.0),
        ]))
        var expected = header(kind: 1, length: 52)           // 12 + 40
        expected += littleEndian((1.0 as Double).bitPattern)  // timestamp
        expected += [1, 0, 0, 0]                              // count 1, reserved
        expected += [0x04, 0x03, 0x02, 0x01, 3, 2, 0, 0]      // id, phase ended, kind stylus, reserved
        expected += littleEndian((2.0 as Double).bitPattern)
        expected += littleEndian((-0.5 as Double).bitPattern)
        expected += littleEndian((1.0 as Float).bitPattern)
        expected += littleEndian((2.0 as Float).bitPattern)
        expected += littleEndian((0.5 as Float).bitPattern)
        expected += littleEndian((-1.0 as Float).bitPattern)
        expectEqual(HIDPacketEncoder().encode(event), expected)

        var button = header(kind: 2, length: 20)
        button += littleEndian((2.0 as Double).bitPattern)
        button += [0x07, 0x00, 0x28, 0x00, 1, 0, 0, 0]
        button += [0x01, 0x00, 0x00, 0x80]
        expectEqual(HIDPacketEncoder().encode(keyDown), button)

        var motion = header(kind: 3, length: 12)
        motion += littleEndian((3.25 as Double).bitPattern)
        motion += [0, 0, 0, 0]
        expectEqual(HIDPacketEncoder().encode(shake), motion)
    }

    @Test func encodeIntoAppends() {
        var bytes: [UInt8] = [0xAB]
        HIDPacketEncoder().encode(shake, into: &bytes)
        expectEqual(bytes.first, 0xAB)
        expectEqual(Array(bytes.dropFirst()), HIDPacketEncoder().encode(shake))
    }

    @Test func nanAndInfiniteValuesSurviveTheWireBitForBit() throws {
        // A NaN with a payload and the sign bit set, to show nothing canonicalises it.
        let oddNaN = Double(bitPattern: 0xFFF8_0000_0000_1234)
        let signallingNaN = Double(bitPattern: 0x7FF0_0000_0000_0001)
        let floatNaN = Float(bitPattern: 0x7FC0_0042)
        let event = HIDEvent.digitizer(DigitizerFrame(timestamp: .nan, contacts: [
            DigitizerContact(identifier: 1, phase: .moved, x: oddNaN, y: signallingNaN,
                             majorRadius: floatNaN, majorRadiusTolerance: .infinity, force: -.infinity, maximumPossibleForce: .nan),
            DigitizerContact(identifier: 2, phase: .moved, x: .infinity, y: -.infinity),
        ]))
        let results = decodeAll(HIDPacketEncoder().encode(event))
        expectEqual(results.count, 1)
        guard case .success(.digitizer(let frame))? = results.first else {
            Issue.record("expected a digitizer frame, got \(results)")
            return
        }
        #expect(frame.timestamp.isNaN)
        expectEqual(frame.contacts.count, 2)
        let first = frame.contacts[0]
        expectEqual(first.x.bitPattern, 0xFFF8_0000_0000_1234)
        expectEqual(first.y.bitPattern, 0x7FF0_0000_0000_0001)
        expectEqual(first.majorRadius.bitPattern, 0x7FC0_0042)
        expectEqual(first.majorRadiusTolerance, .infinity)
        expectEqual(first.force, -.infinity)
        #expect(first.maximumPossibleForce.isNaN)
        expectEqual(frame.contacts[1].x, .infinity)
        expectEqual(frame.contacts[1].y, -.infinity)
        // NaN coordinates pass the wire; validation is the application's job.
        #expect(first.identifier == 1 && first.phase == .moved)
    }

    @Test func nanTimestampsOnButtonAndMotionSurvive() {
        let button = HIDEvent.button(ButtonEvent(timestamp: .nan, usagePage: 1, usage: 2, isDown: false))
        let motion = HIDEvent.motion(MotionEvent(timestamp: -.infinity, kind: .shake, phase: .cancelled))
        let results = decodeAll(encode([button, motion]))
        expectEqual(results.count, 2)
        if case .success(.button(let decoded))? = results.first {
            #expect(decoded.timestamp.isNaN)
            #expect(decoded.usagePage == 1 && decoded.usage == 2 && !decoded.isDown)
        } else {
            Issue.record("expected a button event, got \(results)")
        }
        expectEqual(results.last, .success(motion))
    }
}

// MARK: - Streams

@Suite struct HIDStreamTests {
    let mixed: [HIDEvent] = [oneFinger, keyDown, threeContacts, shake,
                             .digitizer(DigitizerFrame(timestamp: 5, contacts: []))]

    @Test func severalPacketsBackToBack() {
        expectEqual(decodeAll(encode(mixed)), mixed.map { .success($0) })
    }

    @Test func oneByteAtATime() {
        let bytes = encode(mixed)
        var decoder = HIDPacketDecoder()
        var results: [Result<HIDEvent, HIDDecodingError>] = []
        var boundaries: [Int] = []
        for (index, byte) in bytes.enumerated() {
            decoder.append([byte])
            let before = results.count
            results += drain(&decoder)
            if results.count > before { boundaries.append(index + 1) }
        }
        expectEqual(results, mixed.map { .success($0) })
        // Each event appears exactly when its last byte arrives: 64, +32, +144, +24, +24.
        expectEqual(boundaries, [64, 96, 240, 264, 288])
        expectEqual(decoder.bufferedByteCount, 0)
    }

    @Test(arguments: [[2], [3], [5], [7], [11], [13], [1, 2, 3, 5, 8, 13, 21], [63, 1], [100], [1000]])
    func oddSizedSlices(_ sizes: [Int]) {
        expectEqual(decodeAll(encode(mixed), sliceSizes: sizes), mixed.map { .success($0) })
    }

    @Test func unsafeBufferAppendMatchesSequenceAppend() {
        let bytes = encode(mixed)
        var decoder = HIDPacketDecoder()
        var results: [Result<HIDEvent, HIDDecodingError>] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + 17, bytes.count)
            bytes[offset..<end].withUnsafeBytes { decoder.append($0) }
            results += drain(&decoder)
            offset = end
        }
        expectEqual(results, mixed.map { .success($0) })
    }

    @Test func incompletePacketWaits() {
        let bytes = HIDPacketEncoder().encode(threeContacts)
        var decoder = HIDPacketDecoder()
        decoder.append(bytes.dropLast())
        #expect(decoder.next() == nil)
        expectEqual(decoder.bufferedByteCount, bytes.count - 1)
        decoder.append([bytes.last!])
        expectEqual(decoder.next(), .success(threeContacts))
        #expect(decoder.next() == nil)
        expectEqual(decoder.bufferedByteCount, 0)
    }

    @Test func emptyDecoderYieldsNothing() {
        var decoder = HIDPacketDecoder()
        #expect(decoder.next() == nil)
        decoder.append([UInt8]())
        #expect(decoder.next() == nil)
        expectEqual(decoder.bufferedByteCount, 0)
    }

    @Test func takingBytesLeavesTheSenderEmptyAndKeepsAPartialPacketWhole() {
        let bytes = encode([oneFinger, threeContacts])
        var decoder = HIDPacketDecoder()
        var outgoing: [UInt8] = []
        var results: [Result<HIDEvent, HIDDecodingError>] = []
        // Cut inside the second packet: the first take trades storage with
        // an empty decoder, the second appends behind the waiting half.
        for slice in [bytes[..<100], bytes[100...]] {
            outgoing.append(contentsOf: slice)
            decoder.take(&outgoing)
            #expect(outgoing.isEmpty)
            results += drain(&decoder)
        }
        expectEqual(results, [.success(oneFinger), .success(threeContacts)])
        expectEqual(decoder.bufferedByteCount, 0)
        // The sender's array comes back with storage: the next frame is written without allocating.
        #expect(outgoing.capacity > 0)
        outgoing.append(contentsOf: HIDPacketEncoder().encode(keyDown))
        decoder.take(&outgoing)
        expectEqual(decoder.next(), .success(keyDown))
        #expect(outgoing.isEmpty)
    }

    @Test func manyPacketsInALongStreamStayInOrder() {
        // Enough to make the decoder compact its buffer several times.
        var expected: [HIDEvent] = []
        for i in 0..<500 {
            expected.append(.digitizer(DigitizerFrame(timestamp: Double(i), contacts: [
                DigitizerContact(identifier: UInt32(i), phase: .moved, x: Double(i), y: Double(-i)),
            ])))
            expected.append(.button(ButtonEvent(timestamp: Double(i), usagePage: 7, usage: UInt16(i), isDown: i % 2 == 0)))
        }
        let bytes = encode(expected)
        expectEqual(decodeAll(bytes, sliceSizes: [4093, 17, 8191]), expected.map { .success($0) })
        expectEqual(decodeAll(bytes), expected.map { .success($0) })
    }
}

// MARK: - Malformed input

@Suite struct HIDMalformedInputTests {
    @Test func garbageBeforeAPacketIsReportedWithItsExactSize() {
        let garbage: [UInt8] = [0x00, 0xFF, 0x48, 0x49, 0x44, 0x30, 0x12]  // includes a near-miss "HID0"
        let results = decodeAll(garbage + HIDPacketEncoder().encode(oneFinger))
        expectEqual(results, [.failure(.garbage(skippedBytes: 7)), .success(oneFinger)])
    }

    @Test func longGarbageBeforeAPacket() {
        let garbage = [UInt8](repeating: 0xAA, count: 1000)
        let results = decodeAll(garbage + encode([keyDown, shake]))
        expectEqual(results, [.failure(.garbage(skippedBytes: 1000)), .success(keyDown), .success(shake)])
    }

    @Test func garbageEndingInAPartialMagic() {
        // "HI" that is not followed by "D1" is garbage; the real "HID1" follows.
        let garbage: [UInt8] = [0x01, 0x02, 0x48, 0x49]
        let results = decodeAll(garbage + HIDPacketEncoder().encode(shake))
        expectEqual(results, [.failure(.garbage(skippedBytes: 4)), .success(shake)])
    }

    @Test(arguments: [[1], [2], [3], [5], [9, 4]])
    func garbageFedInSlicesLosesNothing(_ sizes: [Int]) {
        // Fed in slices, garbage may be reported in several parts, but the parts
        // add up to exactly the garbage and every packet after it decodes.
        let garbage = [UInt8](repeating: 0x5A, count: 29)
        let results = decodeAll(garbage + encode([oneFinger, keyDown]), sliceSizes: sizes)
        let skipped = errors(results).map { error -> Int in
            if case .garbage(let n) = error { return n }
            Issue.record("unexpected error \(error)")
            return 0
        }
        expectEqual(skipped.reduce(0, +), 29)
        expectEqual(events(results), [oneFinger, keyDown])
    }

    @Test func garbageBetweenPackets() {
        let bytes = HIDPacketEncoder().encode(oneFinger) + [9, 8, 7, 6, 5] + HIDPacketEncoder().encode(shake)
        expectEqual(decodeAll(bytes), [.success(oneFinger), .failure(.garbage(skippedBytes: 5)), .success(shake)])
    }

    @Test func corruptHeaderWithAHugeLengthResynchronises() {
        let corrupt = header(kind: 1, length: 0x7FFF_FFFF)
        let results = decodeAll(corrupt + encode([keyDown, oneFinger]))
        // The whole 12-byte corrupt header is skipped, no more.
        expectEqual(results, [.failure(.garbage(skippedBytes: 12)), .success(keyDown), .success(oneFinger)])
    }

    @Test func corruptHeaderWithAHugeLengthFedByteByByte() {
        let corrupt = header(kind: 2, length: UInt32(HIDWireFormat.maximumPayloadSize + 1))
        let results = decodeAll(corrupt + encode([keyDown, oneFinger]), sliceSizes: [1])
        expectEqual(results, [.failure(.garbage(skippedBytes: 12)), .success(keyDown), .success(oneFinger)])
    }

    @Test func payloadOfTheMaximumSizeIsWaitedFor() {
        // Exactly maximumPayloadSize is a legal length: the decoder waits for it.
        var decoder = HIDPacketDecoder()
        decoder.append(header(kind: 99, length: UInt32(HIDWireFormat.maximumPayloadSize)))
        #expect(decoder.next() == nil)
        decoder.append([UInt8](repeating: 0, count: HIDWireFormat.maximumPayloadSize))
        expectEqual(decoder.next(), .failure(.unknownKind(99)))
        decoder.append(HIDPacketEncoder().encode(shake))
        expectEqual(decoder.next(), .success(shake))
    }

    @Test(arguments: [UInt8(0), 2, 0xFF])
    func unsupportedVersion(_ version: UInt8) {
        var bad = HIDPacketEncoder().encode(keyDown)
        bad[4] = version
        let results = decodeAll(bad + HIDPacketEncoder().encode(oneFinger))
        expectEqual(results, [.failure(.unsupportedVersion(version)), .success(oneFinger)])
    }

    @Test(arguments: [UInt8(0), 4, 0xFF])
    func unknownKind(_ kind: UInt8) {
        let bad = header(kind: kind, length: 5) + [1, 2, 3, 4, 5]
        let results = decodeAll(bad + HIDPacketEncoder().encode(oneFinger))
        expectEqual(results, [.failure(.unknownKind(kind)), .success(oneFinger)])
    }

    @Test func digitizerPayloadTooShortForTheContactCount() {
        // Count says 2 contacts (12 + 80 = 92 bytes), but only one is there (52).
        var bad = HIDPacketEncoder().encode(oneFinger)
        bad[12 + 8] = 2
        let results = decodeAll(bad + HIDPacketEncoder().encode(keyDown))
        expectEqual(results, [.failure(.badPayloadLength(kind: 1, length: 52)), .success(keyDown)])
    }

    @Test func digitizerPayloadLongerThanTheContactCount() {
        // Count says 0 contacts, the payload holds 3 (12 + 120 = 132 bytes).
        var bad = HIDPacketEncoder().encode(threeContacts)
        bad[12 + 8] = 0
        let results = decodeAll(bad + HIDPacketEncoder().encode(shake))
        expectEqual(results, [.failure(.badPayloadLength(kind: 1, length: 132)), .success(shake)])
    }

    @Test func digitizerPayloadShorterThanItsPrefix() {
        let bad = header(kind: 1, length: 4) + [0, 0, 0, 0]
        let results = decodeAll(bad + HIDPacketEncoder().encode(shake))
        expectEqual(results, [.failure(.badPayloadLength(kind: 1, length: 4)), .success(shake)])
    }

    @Test func buttonPayloadOfTheWrongLength() {
        let bad = header(kind: 2, length: 21) + [UInt8](repeating: 0, count: 21)
        let results = decodeAll(bad + HIDPacketEncoder().encode(oneFinger))
        expectEqual(results, [.failure(.badPayloadLength(kind: 2, length: 21)), .success(oneFinger)])
    }

    @Test func motionPayloadOfTheWrongLength() {
        let bad = header(kind: 3, length: 0)
        let results = decodeAll(bad + HIDPacketEncoder().encode(oneFinger))
        expectEqual(results, [.failure(.badPayloadLength(kind: 3, length: 0)), .success(oneFinger)])
    }

    @Test func badContactPhase() {
        // Second contact's phase byte: 12 header + 12 prefix + 40 first contact + 4.
        var bad = HIDPacketEncoder().encode(threeContacts)
        bad[12 + 12 + 40 + 4] = 5
        let results = decodeAll(bad + HIDPacketEncoder().encode(oneFinger))
        expectEqual(results, [.failure(.badField("contact phase 5")), .success(oneFinger)])
    }

    @Test func badContactKind() {
        var bad = HIDPacketEncoder().encode(threeContacts)
        bad[12 + 12 + 80 + 5] = 0xEE  // third contact's kind byte
        let results = decodeAll(bad + HIDPacketEncoder().encode(oneFinger))
        expectEqual(results, [.failure(.badField("contact kind 238")), .success(oneFinger)])
    }

    @Test func badButtonFlag() {
        var bad = HIDPacketEncoder().encode(keyDown)
        bad[12 + 12] = 2
        let results = decodeAll(bad + HIDPacketEncoder().encode(keyDown))
        expectEqual(results, [.failure(.badField("button down flag 2")), .success(keyDown)])
    }

    @Test func badMotionKind() {
        var bad = HIDPacketEncoder().encode(shake)
        bad[12 + 8] = 1
        let results = decodeAll(bad + HIDPacketEncoder().encode(shake))
        expectEqual(results, [.failure(.badField("motion kind 1")), .success(shake)])
    }

    @Test func badMotionPhase() {
        var bad = HIDPacketEncoder().encode(shake)
        bad[12 + 9] = 3
        let results = decodeAll(bad + HIDPacketEncoder().encode(keyDown))
        expectEqual(results, [.failure(.badField("motion phase 3")), .success(keyDown)])
    }

    @Test(arguments: [[1], [3], [7], [1000]])
    func everyKindOfErrorInOneStreamCostsOnlyItsOwnPacket(_ sizes: [Int]) {
        var badVersion = HIDPacketEncoder().encode(shake); badVersion[4] = 9
        var badPhase = HIDPacketEncoder().encode(oneFinger); badPhase[12 + 12 + 4] = 200
        var badFlag = HIDPacketEncoder().encode(keyDown); badFlag[24] = 7
        var badMotion = HIDPacketEncoder().encode(shake); badMotion[20] = 4
        var badCount = HIDPacketEncoder().encode(oneFinger); badCount[20] = 3
        let parts: [[UInt8]] = [
            HIDPacketEncoder().encode(oneFinger),
            badVersion, HIDPacketEncoder().encode(keyDown),
            header(kind: 42, length: 2) + [0, 0], HIDPacketEncoder().encode(shake),
            badPhase, HIDPacketEncoder().encode(threeContacts),
            badFlag, HIDPacketEncoder().encode(oneFinger),
            badMotion, HIDPacketEncoder().encode(keyDown),
            badCount, HIDPacketEncoder().encode(shake),
            header(kind: 1, length: 0xFFFF_FFFF), HIDPacketEncoder().encode(threeContacts),
        ]
        let stream = parts.flatMap { $0 }
        let expected: [Result<HIDEvent, HIDDecodingError>] = [
            .success(oneFinger),
            .failure(.unsupportedVersion(9)), .success(keyDown),
            .failure(.unknownKind(42)), .success(shake),
            .failure(.badField("contact phase 200")), .success(threeContacts),
            .failure(.badField("button down flag 7")), .success(oneFinger),
            .failure(.badField("motion kind 4")), .success(keyDown),
            .failure(.badPayloadLength(kind: 1, length: 52)), .success(shake),
            .failure(.garbage(skippedBytes: 12)), .success(threeContacts),
        ]
        expectEqual(decodeAll(stream, sliceSizes: sizes), expected)
    }

    @Test func errorsDescribeThemselves() {
        #expect(HIDDecodingError.garbage(skippedBytes: 3).description.contains("3"))
        #expect(HIDDecodingError.unsupportedVersion(7).description.contains("7"))
        #expect(HIDDecodingError.unknownKind(9).description.contains("9"))
        #expect(HIDDecodingError.badPayloadLength(kind: 2, length: 21).description.contains("21"))
        #expect(HIDDecodingError.badField("motion kind 4").description.contains("motion kind 4"))
    }
}
