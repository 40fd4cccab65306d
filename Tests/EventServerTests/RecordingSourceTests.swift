#if canImport(Glibc)
import Glibc
#endif
import TestExpectations
import Testing
import EventServer
import HID

/// The hand-written recordings under Recordings/, read the way the server
/// reads them: `InputDevices.open`, then the source's descriptor and reads.
@Suite struct RecordingSourceTests {
    private func play(
        _ name: String, timing: HIDReplaySchedule.Timing = .asFastAsPossible, device: InputDeviceDescription? = nil
    ) throws -> (events: [HIDEvent], ended: Bool, diagnostics: [String]) {
        let source = try InputDevices.open(path: recordingPath(name), screen: testScreen, timing: timing, device: device)
        expectEqual(source.name, recordingPath(name))
        return drain(source)
    }

    @Test func anEvemuRecordingOfTwoFingers() throws {
        let result = try play("two-finger-gesture.evemu")
        #expect(result.ended)
        #expect(result.diagnostics.isEmpty)
        #expect(frames(result.events) == [
            [Seen(1, .began, 100, 200)],
            [Seen(1, .stationary, 100, 200), Seen(2, .began, 300, 600)],
            [Seen(1, .moved, 110, 200), Seen(2, .moved, 290, 600)],
            [Seen(1, .moved, 110, 210), Seen(2, .stationary, 290, 600)],
            [Seen(1, .ended, 110, 210), Seen(2, .stationary, 290, 600)],
            [Seen(2, .ended, 290, 600)],
        ])
        // As fast as possible keeps the recorded intervals between timestamps.
        let times = result.events.map(\.timestamp)
        let intervals = zip(times.dropFirst(), times).map { (($0 - $1) * 1000).rounded() / 1000 }
        expectEqual(intervals, [0.016, 0.016, 0.016, 0.016, 0.016])
    }

    /// A recording in `evemu-record`'s own output layout (its comment header
    /// describing every axis, the banner, events annotated after a tab,
    /// negative values written `-001`, `MSC_TIMESTAMP` and the kernel's
    /// single-touch emulation beside the slots): a two-finger scroll.
    @Test func aRecordingInEvemuRecordsOwnLayout() throws {
        let result = try play("two-finger-scroll.evemu")
        #expect(result.ended)
        #expect(result.diagnostics.isEmpty)
        var expected: [[Seen]] = [
            [Seen(1, .began, 300, 600)],
            [Seen(1, .moved, 300, 590), Seen(2, .began, 100, 620)],
        ]
        for scan in 2...9 {
            expected.append([Seen(1, .moved, 300, 600 - 10 * Double(scan)), Seen(2, .moved, 100, 630 - 10 * Double(scan))])
        }
        expected.append([Seen(1, .moved, 300, 500), Seen(2, .ended, 100, 540)])
        expected.append([Seen(1, .ended, 300, 500)])
        expectEqual(frames(result.events), expected)
        let times = result.events.map(\.timestamp)
        #expect(zip(times.dropFirst(), times).allSatisfy { abs($0 - $1 - 0.008) < 0.001 }, "scans about 8 ms apart")
    }

    @Test func theSameGestureAsInputEventRecordsIsRecognisedByContent() throws {
        let evemu = try play("two-finger-gesture.evemu").events
        let header = try InputDeviceDescription.evemuHeader(atPath: recordingPath("two-finger-gesture.evemu"))
        expectEqual(header, touchScreen())
        let records = try play("two-finger-gesture.events", device: header)
        #expect(records.diagnostics.isEmpty)
        expectEqual(frames(records.events), frames(evemu))
    }

    @Test func recordsWithoutADescriptionAreTakenAsPoints() throws {
        let records = try play("two-finger-gesture.events")
        // 1000 device units would be 1000 points: held at the screen's edges.
        expectEqual(frames(records.events).first, [Seen(1, .began, 390, 844)])
    }

    @Test func aPinchMovesBothFingersTowardEachOther() throws {
        let result = try play("pinch.evemu")
        let seen = frames(result.events)
        expectEqual(seen.count, 6)
        expectEqual(seen.first, [Seen(1, .began, 100, 400), Seen(2, .began, 290, 400)])
        for (step, frame) in seen.dropFirst().prefix(4).enumerated() {
            let moved = Double(20 * (step + 1))
            expectEqual(frame, [Seen(1, .moved, 100 + moved, 400), Seen(2, .moved, 290 - moved, 400)])
        }
        expectEqual(seen.last, [Seen(1, .ended, 180, 400), Seen(2, .ended, 210, 400)])
    }

    @Test func synDroppedInTheMiddleOfARecording() throws {
        for name in ["syn-dropped.evemu", "syn-dropped.events"] {
            let result = try play(name, device: touchScreen())
            #expect(frames(result.events) == [
                [Seen(1, .began, 100, 100), Seen(2, .began, 200, 200)],
                [Seen(1, .moved, 110, 100), Seen(2, .stationary, 200, 200)],
                // Slot 1's move to 210 came before the SYN_DROPPED in its scan.
                [Seen(1, .cancelled, 110, 100), Seen(2, .cancelled, 210, 200)],
                [Seen(3, .began, 50, 50)],
                [Seen(3, .moved, 60, 50)],
                [Seen(3, .ended, 60, 50)],
            ], "\(name)")
            #expect(result.diagnostics.contains { $0.contains("SYN_DROPPED") }, "\(name)")
        }
    }

    @Test func aMouseDragIsOneIndirectPointerContact() throws {
        let result = try play("mouse-drag.evemu")
        // The pointer starts at the screen's centre (195, 422) and moves 20 right, 10 down.
        #expect(frames(result.events) == [
            [Seen(1, .began, 215, 432)],
            [Seen(1, .moved, 225, 445)],
            [Seen(1, .moved, 235, 458)],
            [Seen(1, .moved, 245, 472)],
            [Seen(1, .ended, 245, 472)],
        ])
        guard case .digitizer(let first)? = result.events.first else { return }
        expectEqual(first.contacts[0].kind, .indirectPointer)
        #expect(result.diagnostics.isEmpty)
    }

    @Test func typingAWordGivesKeyboardUsagesWithModifiers() throws {
        let result = try play("typing.evemu")
        #expect(result.diagnostics.isEmpty)
        let typed = buttons(result.events).map { "\($0.isDown ? "↓" : "↑")\(String($0.usage, radix: 16))\($0.modifierFlags == 0 ? "" : "+\(String($0.modifierFlags, radix: 16))")" }
        // Shift (0xE1) down, S (0x16) with shift, …, f (0x09) once despite its auto-repeat, Return (0x28).
        #expect(typed == [
            "↓e1+20000", "↓16+20000", "↑16+20000", "↑e1",
            "↓1a", "↑1a", "↓c", "↑c", "↓9", "↑9", "↓17", "↑17", "↓28", "↑28",
        ])
        #expect(buttons(result.events).allSatisfy { $0.usagePage == 0x07 })
    }

    @Test func recordedTimingPlaysAtTheRecordedPace() throws {
        // The clock starts before the source is opened, as the schedule
        // starts during the opening: a slow open must not shorten the pace.
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        let source = try InputDevices.open(path: recordingPath("two-finger-gesture.evemu"), screen: testScreen, timing: .recorded(speed: 0.5))
        let result = drain(source)
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &end)
        let elapsed = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
        // 80 ms recorded at half speed: 160 ms at least (an upper bound would only measure the machine's load).
        #expect(elapsed >= 0.16)
        expectEqual(frames(result.events).count, 6)
        let times = result.events.map(\.timestamp)
        #expect(abs((times.last! - times.first!) - 0.16) < 1e-6)
    }

    @Test func aPathThatIsNotThereSaysSo() {
        #expect(throws: InputSourceError.unreadable("/nonexistent/event0: no such file or device")) {
            try InputDevices.open(path: "/nonexistent/event0", screen: testScreen)
        }
    }

    @Test func aDirectoryIsNotAnInputSource() {
        #expect(throws: InputSourceError.unreadable("/tmp: not an input device, a FIFO or a file")) {
            try InputDevices.open(path: "/tmp", screen: testScreen)
        }
    }

    @Test func aCharacterDeviceThatIsNotEvdevIsRefused() {
        #expect(throws: InputSourceError.unreadable("/dev/null: not an evdev input device (it does not answer EVIOCGBIT)")) {
            try InputDevices.open(path: "/dev/null", screen: testScreen)
        }
    }
}
