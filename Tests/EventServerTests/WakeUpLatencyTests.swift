#if canImport(Glibc)
import Glibc
#endif
@testable import EventServer
import HID
import TestExpectations
import Testing

/// The server asks the kernel that idle processors wake at once (a CPU
/// latency request of zero) while a finger is down, and only then
/// (WakeUpLatencyRequest, docs/screen.md). The device here is a file of the
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

    @Test func theRequestIsHeldFromAFingersLandingToItsLift() throws {
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
        expectEqual(isOpen(device), false)
        expectEqual(try application.touchPhases(), ["1 began", "1 moved", "2 began", "1 ended", "2 ended"])
    }

    /// A benchmark's server was seen holding the request long after its
    /// application was dropped and its injector gone: the finger the
    /// injector held down ends with it, application or not.
    @Test func theRequestIsLetGoWhenTheInjectorHangsUpAfterItsApplicationWentAway() throws {
        let device = deviceFile()
        defer { unlink(device) }
        let harness = try ServerHarness(wakeUpLatencyDevice: device)
        let application = try harness.connect(name: "app")
        let injector = try harness.connect(.injector, name: "benchmark")
        for phase in [DigitizerContact.Phase.began, .moved] {
            try injector.injectTouch(4, phase)
            harness.turn()
        }
        expectEqual(isOpen(device), true)
        application.socket.close()
        harness.turn()
        expectEqual(isOpen(device), true, "the finger is still down")
        injector.socket.close()
        harness.turn()
        expectEqual(harness.server.contactsDown, 0)
        expectEqual(isOpen(device), false)
    }

    /// The rule, with given times: held while a finger is down and events
    /// come, let go ``WakeUpLatencyRequest/heldWithoutInput`` after the last
    /// one though the finger stays down, taken again at the next event;
    /// never held, and no time to wake for, with no finger down.
    @Test func withAFingerDownTheRequestLapsesABoundAfterTheLastInputEvent() throws {
        let device = deviceFile()
        defer { unlink(device) }
        let request = WakeUpLatencyRequest(devicePath: device)
        let bound = WakeUpLatencyRequest.heldWithoutInput
        _ = request.update(fingersDown: false, lastInput: -.infinity, now: 100)
        expectEqual(isOpen(device), false, "idle")
        expectEqual(request.letGoTime, nil, "idle")

        _ = request.update(fingersDown: true, lastInput: 101, now: 101)
        expectEqual(isOpen(device), true)
        expectEqual(request.letGoTime, 101 + bound)
        _ = request.update(fingersDown: true, lastInput: 101, now: 101 + bound - 0.01)
        expectEqual(isOpen(device), true, "just under the bound after the last event")
        _ = request.update(fingersDown: true, lastInput: 101, now: 101 + bound)
        expectEqual(isOpen(device), false, "the bound after the last event, the finger still down")
        expectEqual(request.letGoTime, nil)
        _ = request.update(fingersDown: true, lastInput: 101, now: 500)
        expectEqual(isOpen(device), false, "still no event")

        _ = request.update(fingersDown: true, lastInput: 500.5, now: 500.5)
        expectEqual(isOpen(device), true, "a new event")
        expectEqual(request.letGoTime, 500.5 + bound)
        _ = request.update(fingersDown: false, lastInput: 500.6, now: 500.6)
        expectEqual(isOpen(device), false, "the lift")
        _ = request.update(fingersDown: false, lastInput: 500.6, now: 501)
        expectEqual(request.letGoTime, nil)
    }

    /// An injector that stops sending with a finger down and stays
    /// connected (a benchmark stopped, a replay hung): the server wakes by
    /// itself to let the request go the bound after the last event, and
    /// the finger stays down for the application (nothing is cancelled);
    /// the injector's next event takes the request again. The test waits
    /// for the bound (1.4 s).
    @Test func aStoppedInjectorsFingerLetsTheRequestGoABoundAfterItsLastEvent() throws {
        let device = deviceFile()
        defer { unlink(device) }
        let harness = try ServerHarness(wakeUpLatencyDevice: device)
        let application = try harness.connect(name: "app")
        let injector = try harness.connect(.injector, name: "stopped")
        func inject(_ phase: DigitizerContact.Phase) throws {
            try injector.injectTouch(3, phase)
            harness.turn()
            for (sequence, _) in try application.events() { try application.acknowledge(sequence) }
            harness.turn()
        }
        expectEqual(harness.server.wakeUpLatency.letGoTime, nil)
        try inject(.began)
        expectEqual(isOpen(device), true)
        let lastEvent = harness.server.dispatcher.lastReadTime
        expectEqual(harness.server.wakeUpLatency.letGoTime, lastEvent + WakeUpLatencyRequest.heldWithoutInput)

        // Turns that would sleep 30 s: the server must wake for the bound
        // itself (a turn that slept the whole 30 s would let go too late to
        // pass; 10 s leaves any machine's load room).
        let giveUp = lastEvent + 30
        while isOpen(device) && monotonicSeconds() < giveUp {
            harness.server.runOnce(timeout: giveUp - monotonicSeconds())
        }
        expectEqual(isOpen(device), false)
        #expect(monotonicSeconds() >= lastEvent + WakeUpLatencyRequest.heldWithoutInput, "not before the bound")
        #expect(monotonicSeconds() < lastEvent + 10, "let go by the server's own wake-up for the bound")
        expectEqual(harness.server.contactsDown, 1, "the finger is still down")
        expectEqual(try application.touchPhases(), [], "nothing cancelled")

        try inject(.moved)
        expectEqual(isOpen(device), true, "the next event")
        try inject(.ended)
        expectEqual(isOpen(device), false)
        expectEqual(harness.server.wakeUpLatency.letGoTime, nil)
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
