#if canImport(Glibc)
import Glibc
#endif
import TestExpectations
import Testing
import EventServer
import HID

private func temporaryFile(_ bytes: [UInt8]) -> String {
    var template = Array("/tmp/openuikit-recording-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    return String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
}

private let recorded: [HIDEvent] = [
    .digitizer(DigitizerFrame(timestamp: 3, contacts: [DigitizerContact(identifier: 9, phase: .began, x: 1, y: 2)])),
    .digitizer(DigitizerFrame(timestamp: 3.02, contacts: [DigitizerContact(identifier: 9, phase: .ended, x: 1, y: 2)])),
    .button(ButtonEvent(timestamp: 3.04, usagePage: 0x0C, usage: 0xCD, isDown: true)),
]

@Suite struct ReplaySourceTests {
    @Test func aHIDRecordingIsRecognisedByContentAndPlayed() throws {
        let path = temporaryFile(HIDRecording.encode(recorded))
        defer { unlink(path) }
        let source = try InputDevices.open(path: path, screen: testScreen, timing: .recorded(speed: 4))
        #expect(source is ReplaySource)
        let result = drain(source)
        #expect(result.ended)
        #expect(result.diagnostics.isEmpty)
        expectEqual(result.events.count, 3)
        expectEqual(result.events.map { $0.retimed(to: 0) }, recorded.map { $0.retimed(to: 0) })
        let times = result.events.map(\.timestamp)
        #expect(abs((times[2] - times[0]) - 0.01) < 1e-6)
    }

    @Test func aDamagedRecordingPlaysUpToTheDamageAndSaysWhere() throws {
        var bytes = HIDRecording.encode(recorded)
        bytes.removeLast(5)
        let path = temporaryFile(bytes)
        defer { unlink(path) }
        let source = try ReplaySource(recordingAt: path, timing: .asFastAsPossible)
        let result = drain(source)
        expectEqual(result.events.count, 2)
        expectEqual(result.diagnostics.count, 1)
        expectEqual(result.diagnostics.first?.hasPrefix("\(path): the recording is cut short in record 2 at byte"), true)
    }

    @Test func aFileThatIsNoRecordingIsRefusedAsOne() {
        let path = temporaryFile(Array("hello".utf8))
        defer { unlink(path) }
        #expect(throws: InputSourceError.unreadable("\(path): not a HID recording (the file does not start with \"OUIKHIDR\")")) {
            try ReplaySource(recordingAt: path, timing: .asFastAsPossible)
        }
    }

    @Test func aSpeedThatIsNotPositiveIsRefused() {
        #expect(throws: InputSourceError.unreadable("replay: replay speed 0.0 must be a finite number greater than 0")) {
            try ReplaySource(name: "replay", events: recorded, timing: .recorded(speed: 0))
        }
    }

    @Test func theTimerIsNotReadableBeforeTheNextEventIsDue() throws {
        let source = try ReplaySource(name: "replay", events: recorded, timing: .recorded(speed: 0.1))
        #expect(waitReadable(source.fileDescriptor, timeout: 1))
        try expectEqual(source.readEvents().count, 1)
        // The second event is due 0.2 s later at a tenth of the speed.
        #expect(!waitReadable(source.fileDescriptor, timeout: 0.05))
        #expect(try source.readEvents().isEmpty)
    }

    /// A finger held down and moved one device unit per scan, `count` scans,
    /// as bare records: a file as long as a user's.
    private func longDragRecords(scans count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity((count + 2) * 3 * LinuxInputEvent.size)
        bytes += abs(0, LinuxInput.ABS_MT_TRACKING_ID, 5).bytes
        for scan in 0..<count {
            let time = Double(scan) * 0.001
            bytes += abs(time, LinuxInput.ABS_MT_POSITION_X, Int32(scan % 300)).bytes
            bytes += syn(time).bytes
        }
        return bytes
    }

    @Test func aLongFileIsReadAsItPlaysWithFewEventsDecodedAhead() throws {
        // The server used to decode a --device file whole before serving
        // anyone (a 96 MB file: 16.5 s and 490 MB); now it reads a chunk at
        // a time, keeping about one read's worth of events ahead.
        let scans = 60_000
        let path = temporaryFile(longDragRecords(scans: scans))
        defer { unlink(path) }
        let source = try #require(try InputDevices.open(path: path, screen: testScreen, timing: .asFastAsPossible, device: touchScreen()) as? ReplaySource)
        let bound = ReplaySource.eventsPerRead + ReplaySource.chunkSize / LinuxInputEvent.size
        #expect(source.bufferedCount > 0)
        #expect(source.bufferedCount <= bound)
        var played: [HIDEvent] = []
        var mostAhead = source.bufferedCount
        while true {
            #expect(waitReadable(source.fileDescriptor, timeout: 5))
            do {
                played += try source.readEvents()
            } catch {
                expectEqual(error, .endOfInput)
                break
            }
            mostAhead = max(mostAhead, source.bufferedCount)
        }
        #expect(mostAhead <= bound)
        // Every scan, in order, then the finger still down cancelled at the end.
        let seen = frames(played)
        expectEqual(seen.count, scans + 1)
        expectEqual(seen.first?.first?.phase, .began)
        #expect(seen.dropFirst().dropLast().allSatisfy { $0.first?.phase == .moved || $0.first?.phase == .stationary })
        expectEqual(seen.last?.first?.phase, .cancelled)
        let times = played.map(\.timestamp)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func aLongRecordingIsReadAsItPlaysAndStopsAtItsDamage() throws {
        var events: [HIDEvent] = []
        for index in 0..<20_000 {
            let phase: DigitizerContact.Phase = index == 0 ? .began : .moved
            events.append(.digitizer(DigitizerFrame(
                timestamp: Double(index) * 0.001, contacts: [DigitizerContact(identifier: 1, phase: phase, x: Double(index % 390), y: 5)]
            )))
        }
        var bytes = HIDRecording.encode(events)
        let recordSize = HIDRecording.record(events[0]).count
        // Damage the checksum of record 15,000: what comes before plays.
        bytes[HIDRecording.headerSize + 15_000 * recordSize + 4] ^= 0xFF
        let path = temporaryFile(bytes)
        defer { unlink(path) }
        let source = try ReplaySource(recordingAt: path, timing: .asFastAsPossible)
        #expect(source.bufferedCount <= ReplaySource.eventsPerRead + ReplaySource.chunkSize / recordSize)
        let result = drain(source)
        #expect(result.ended)
        expectEqual(result.events.count, 15_000)
        expectEqual(result.events.map { $0.retimed(to: 0) }, events.prefix(15_000).map { $0.retimed(to: 0) })
        expectEqual(result.diagnostics, ["\(path): record 15000 at byte \(HIDRecording.headerSize + 15_000 * recordSize) is damaged (checksum mismatch); the 15000 records before it were read"])
    }

    @Test func anEvemuHeaderIsReadUpToItsFirstEvent() throws {
        let header = readFile(recordingPath("two-finger-gesture.evemu"))
        // A recording whose events go on: only the header is read.
        var bytes = header
        for index in 0..<10_000 { bytes += Array("E: 9.\(100_000 + index) 0000 0000 0000\n".utf8) }
        let path = temporaryFile(bytes)
        defer { unlink(path) }
        let device = try InputDeviceDescription.evemuHeader(atPath: path)
        #expect(device.absoluteAxes[LinuxInput.ABS_MT_POSITION_X]?.maximum == 3900)
    }
}
