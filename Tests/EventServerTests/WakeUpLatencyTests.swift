#if canImport(Glibc)
import Glibc
#endif
@testable import EventServer
import HID
import TestExpectations
import Testing

/// The server asks the kernel that idle processors wake at once (a CPU
/// latency request of zero) while a finger is down and while the frames
/// after its lift keep coming, and only then (WakeUpLatencyRequest,
/// docs/screen.md). The device here is a file of the
/// test's: the request is held while the server has it open, with a 32-bit
/// zero written to it.
@Suite struct WakeUpLatencyTests {
    /// A file standing for `/dev/cpu_dma_latency`.
    func deviceFile() -> String {
        var template = Array("/tmp/openuikit-latency-device-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        close(descriptor)
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether this process (the server runs in it) has `path` open.
    func isOpen(_ path: String) -> Bool {
        guard let directory = opendir("/proc/self/fd") else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            var target = [CChar](repeating: 0, count: 4096)
            let length = readlink("/proc/self/fd/\(name)", &target, target.count - 1)
            if length > 0, String(decoding: target.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) == path { return true }
        }
        return false
    }

    func contents(of path: String) -> [UInt8] {
        guard let file = fopen(path, "r") else { return [] }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        while case let byte = fgetc(file), byte != EOF { bytes.append(UInt8(byte)) }
        return bytes
    }

    /// Turns the server until its frame clock stops, for at most a second;
    /// returns the frame signals `client` got meanwhile.
    @discardableResult
    func turnUntilTheClockStops(_ harness: ServerHarness, _ client: TestClient) throws -> Int {
        var signals = 0
        let deadline = monotonicSeconds() + 1
        while harness.server.presenter.clock.isRunning && monotonicSeconds() < deadline {
            harness.server.runOnce(timeout: 0.01)
            signals += try client.receive().filter { if case .frameSignal = $0 { true } else { false } }.count
        }
        #expect(!harness.server.presenter.clock.isRunning, "the clock did not stop within a second")
        return signals
    }

    @Test func theRequestIsHeldFromAFingersLandingUntilTheRefreshesAfterItsLiftStop() throws {
        let device = deviceFile()
        defer { unlink(device) }
        let harness = try ServerHarness(wakeUpLatencyDevice: device)
        let application = try harness.connect(name: "app")
        harness.turn()
        expectEqual(isOpen(device), false)

        harness.touch(1, .began)
        expectEqual(isOpen(device), true)
        expectEqual(contents(of: device), [0, 0, 0, 0])
        harness.touch(1, .moved, x: 120)
        expectEqual(isOpen(device), true)
        // A second finger lands and the first lifts: one is still down.
        harness.touch(2, .began)
        harness.touch(1, .ended)
        expectEqual(isOpen(device), true)

        harness.touch(2, .ended)
        let events = try application.events()
        let phases = events.map { _, event in
            guard case .digitizer(let frame) = event else { return "\(event)" }
            return frame.contacts.map { "\($0.identifier) \($0.phase)" }.joined(separator: ", ")
        }
        expectEqual(phases, ["1 began", "1 moved", "2 began", "1 ended", "2 ended"])
        // The clock runs while the application owes acknowledgements: the
        // refreshes after the lift are still the touch's.
        expectEqual(harness.server.presenter.clock.isRunning, true)
        expectEqual(isOpen(device), true)
        for (sequence, _) in events { try application.acknowledge(sequence) }
        try turnUntilTheClockStops(harness, application)
        expectEqual(isOpen(device), false)
    }

    /// A flung list decelerates after the lift, its frames asked for at
    /// every signal: the request is held while they come, and let go when
    /// the clock stops. Frames an application then draws with no touch
    /// (a timer's animation) do not take it again.
    @Test func theRequestIsHeldWhileTheFramesAfterTheLiftKeepComing() throws {
        let device = deviceFile()
        defer { unlink(device) }
        let harness = try ServerHarness(wakeUpLatencyDevice: device)
        let list = try harness.connect(name: "list")
        harness.touch(1, .began)
        harness.touch(1, .moved, x: 150)
        harness.touch(1, .ended)
        for (sequence, _) in try list.events() { try list.acknowledge(sequence) }
        try list.send(.requestFrame)

        var signals = 0
        let deadline = monotonicSeconds() + 2
        while signals < 6 && monotonicSeconds() < deadline {
            harness.server.runOnce(timeout: 0.01)
            for case .frameSignal in try list.receive() {
                signals += 1
                expectEqual(isOpen(device), true, "signal \(signals) after the lift")
                // Decelerating: the next refresh is asked for at each signal.
                if signals < 6 { try list.send(.requestFrame) }
            }
        }
        expectEqual(signals, 6)
        try turnUntilTheClockStops(harness, list)
        expectEqual(isOpen(device), false)

        try list.send(.requestFrame)
        harness.server.runOnce(timeout: 0)
        expectEqual(harness.server.presenter.clock.isRunning, true)
        expectEqual(isOpen(device), false, "frames with no touch")
        expectEqual(try turnUntilTheClockStops(harness, list), 1)
        expectEqual(isOpen(device), false)
    }

    /// Frames that never stop after a touch (an endless animation) hold
    /// the request no longer than ``WakeUpLatencyRequest/holdAfterLastTouch``
    /// after the last finger lifted, as a Pixel's interaction boost lasts
    /// at most 5.65 s; a new touch takes it again. (Times are given: the
    /// rule, not the clock, is under test.)
    @Test func framesThatNeverStopHoldTheRequestAtMostABoundAfterTheLastLift() throws {
        let device = deviceFile()
        defer { unlink(device) }
        let request = WakeUpLatencyRequest(devicePath: device)
        _ = request.update(fingersDown: false, framesComing: true, now: 100)
        expectEqual(isOpen(device), false, "frames with no touch")
        _ = request.update(fingersDown: true, framesComing: true, now: 101)
        expectEqual(isOpen(device), true)
        _ = request.update(fingersDown: true, framesComing: true, now: 102)
        _ = request.update(fingersDown: false, framesComing: true, now: 102.01)
        _ = request.update(fingersDown: false, framesComing: true, now: 107.6)
        expectEqual(isOpen(device), true, "5.59 s after the last turn with a finger down")
        _ = request.update(fingersDown: false, framesComing: true, now: 107.66)
        expectEqual(isOpen(device), false, "5.66 s after it")
        _ = request.update(fingersDown: false, framesComing: true, now: 108)
        expectEqual(isOpen(device), false)
        _ = request.update(fingersDown: true, framesComing: true, now: 109)
        expectEqual(isOpen(device), true, "a new touch")
        _ = request.update(fingersDown: false, framesComing: false, now: 109.5)
        expectEqual(isOpen(device), false, "the frames stopped")
        _ = request.update(fingersDown: false, framesComing: true, now: 109.6)
        expectEqual(isOpen(device), false, "frames again, with no touch since they stopped")
    }

    @Test func theRequestIsLetGoWhenTheServerStopsWithAFingerDown() throws {
        let device = deviceFile()
        defer { unlink(device) }
        let harness = try ServerHarness(wakeUpLatencyDevice: device)
        _ = try harness.connect(name: "app")
        harness.touch(1, .began)
        expectEqual(isOpen(device), true)
        harness.server.shutDown()
        expectEqual(isOpen(device), false)
    }

    @Test func withoutADeviceNothingIsHeld() throws {
        let harness = try ServerHarness()
        _ = try harness.connect(name: "app")
        harness.touch(1, .began)
        expectEqual(harness.server.wakeUpLatency.isHeld, false)
        expectEqual(harness.log.lines.filter { $0.contains("prompt wake-ups") }, [])
    }

    @Test func aDeviceThatCannotBeOpenedIsReportedOnceAndTouchesGoOn() throws {
        let harness = try ServerHarness(wakeUpLatencyDevice: "/nonexistent-openuikit/cpu_dma_latency")
        let application = try harness.connect(name: "app")
        harness.touch(1, .began)
        harness.touch(1, .ended)
        harness.touch(2, .began)
        harness.touch(2, .ended)
        expectEqual(harness.server.wakeUpLatency.isHeld, false)
        expectEqual(harness.log.lines.filter { $0.contains("prompt wake-ups") }, [
            "cannot ask for prompt wake-ups while a finger is down (/nonexistent-openuikit/cpu_dma_latency: No such file or directory); "
                + "frames for a touch may wait for idle processors to wake (docs/screen.md)",
        ])
        expectEqual(try application.touchPhases(), ["1 began", "1 ended", "2 began", "2 ended"])
    }
}
