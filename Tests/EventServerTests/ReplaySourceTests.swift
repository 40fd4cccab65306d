#if canImport(Glibc)
import Glibc
#endif
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
        #expect(result.events.count == 3)
        #expect(result.events.map { $0.retimed(to: 0) } == recorded.map { $0.retimed(to: 0) })
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
        #expect(result.events.count == 2)
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.hasPrefix("\(path): the recording is cut short in record 2 at byte") == true)
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
        #expect(try source.readEvents().count == 1)
        // The second event is due 0.2 s later at a tenth of the speed.
        #expect(!waitReadable(source.fileDescriptor, timeout: 0.05))
        #expect(try source.readEvents().isEmpty)
    }
}
