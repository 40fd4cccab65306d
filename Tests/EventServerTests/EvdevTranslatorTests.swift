import TestExpectations
import Testing
import EventServer
import HID

@Suite struct EvdevTranslatorTests {
    /// Two fingers of the recording two-finger-gesture, record by record.
    private let twoFingerRecords: [LinuxInputEvent] = [
        abs(0, LinuxInput.ABS_MT_SLOT, 0), abs(0, LinuxInput.ABS_MT_TRACKING_ID, 45),
        abs(0, LinuxInput.ABS_MT_POSITION_X, 1000), abs(0, LinuxInput.ABS_MT_POSITION_Y, 2000),
        key(0, LinuxInput.BTN_TOUCH, 1), abs(0, LinuxInput.ABS_X, 1000), syn(0),
        abs(0.016, LinuxInput.ABS_MT_SLOT, 1), abs(0.016, LinuxInput.ABS_MT_TRACKING_ID, 46),
        abs(0.016, LinuxInput.ABS_MT_POSITION_X, 3000), abs(0.016, LinuxInput.ABS_MT_POSITION_Y, 6000), syn(0.016),
        abs(0.032, LinuxInput.ABS_MT_SLOT, 0), abs(0.032, LinuxInput.ABS_MT_POSITION_X, 1100),
        abs(0.032, LinuxInput.ABS_MT_SLOT, 1), abs(0.032, LinuxInput.ABS_MT_POSITION_X, 2900), syn(0.032),
        abs(0.048, LinuxInput.ABS_MT_SLOT, 0), abs(0.048, LinuxInput.ABS_MT_POSITION_Y, 2100), syn(0.048),
        abs(0.064, LinuxInput.ABS_MT_TRACKING_ID, -1), syn(0.064),
        abs(0.080, LinuxInput.ABS_MT_SLOT, 1), abs(0.080, LinuxInput.ABS_MT_TRACKING_ID, -1), key(0.080, LinuxInput.BTN_TOUCH, 0), syn(0.080),
    ]

    private let twoFingerFrames: [[Seen]] = [
        [Seen(1, .began, 100, 200)],
        [Seen(1, .stationary, 100, 200), Seen(2, .began, 300, 600)],
        [Seen(1, .moved, 110, 200), Seen(2, .moved, 290, 600)],
        [Seen(1, .moved, 110, 210), Seen(2, .stationary, 290, 600)],
        [Seen(1, .ended, 110, 210), Seen(2, .stationary, 290, 600)],
        [Seen(2, .ended, 290, 600)],
    ]

    @Test func everyScanIsOneFrameWithEveryContactScaledToPoints() {
        var translator = EvdevTranslator(device: touchScreen(), screen: testScreen)
        let events = translator.translate(twoFingerRecords)
        expectEqual(frames(events), twoFingerFrames)
        expectEqual(events.map(\.timestamp), [0, 0.016, 0.032, 0.048, 0.064, 0.080])
        #expect(translator.takeDiagnostics().isEmpty)
    }

    @Test func aStreamWithoutADescriptionTakesValuesAsPoints() {
        var translator = EvdevTranslator(device: .unknown(name: "stream"), screen: testScreen)
        let events = translator.translate([
            abs(0, LinuxInput.ABS_MT_SLOT, 3), abs(0, LinuxInput.ABS_MT_TRACKING_ID, 1),
            abs(0, LinuxInput.ABS_MT_POSITION_X, 120), abs(0, LinuxInput.ABS_MT_POSITION_Y, 5000), syn(0),
        ])
        // Clamped to the screen: a stream's values are points, and the screen ends at 844.
        expectEqual(frames(events), [[Seen(1, .began, 120, 844)]])
    }

    @Test func pressureAndTouchMajorBecomeForceAndRadius() {
        var translator = EvdevTranslator(device: touchScreen(), screen: testScreen)
        let events = translator.translate([
            abs(0, LinuxInput.ABS_MT_TRACKING_ID, 9), abs(0, LinuxInput.ABS_MT_POSITION_X, 0),
            abs(0, LinuxInput.ABS_MT_TOUCH_MAJOR, 40), abs(0, LinuxInput.ABS_MT_PRESSURE, 255), syn(0),
            abs(0.01, LinuxInput.ABS_MT_PRESSURE, 51), syn(0.01),
        ])
        guard case .digitizer(let first) = events[0], case .digitizer(let second) = events[1] else {
            Issue.record("expected two frames, got \(events)")
            return
        }
        // 40 units across at 10 units a point is 4 points across: radius 2.
        expectEqual(first.contacts[0].majorRadius, 2)
        expectEqual(first.contacts[0].force, EvdevTranslator.maximumForce)
        expectEqual(first.contacts[0].maximumPossibleForce, EvdevTranslator.maximumForce)
        // A change of pressure alone is a move, as force changes are in UIKit.
        expectEqual(second.contacts[0].phase, .moved)
        #expect(abs(Double(second.contacts[0].force) - Double(EvdevTranslator.maximumForce) * 0.2) < 1e-5)
    }

    @Test func aContactThatBeginsAndEndsInOneScanIsReportedInTwoFrames() {
        var translator = EvdevTranslator(device: touchScreen(), screen: testScreen)
        let events = translator.translate([
            abs(0, LinuxInput.ABS_MT_TRACKING_ID, 5), abs(0, LinuxInput.ABS_MT_POSITION_X, 500),
            abs(0, LinuxInput.ABS_MT_POSITION_Y, 500), abs(0, LinuxInput.ABS_MT_TRACKING_ID, -1), syn(0),
        ])
        expectEqual(frames(events), [[Seen(1, .began, 50, 50)], [Seen(1, .ended, 50, 50)]])
    }

    @Test func aNewTrackingIDInAnOccupiedSlotEndsTheOldContact() {
        var translator = EvdevTranslator(device: touchScreen(), screen: testScreen)
        let events = translator.translate([
            abs(0, LinuxInput.ABS_MT_TRACKING_ID, 5), abs(0, LinuxInput.ABS_MT_POSITION_X, 500), syn(0),
            abs(0.01, LinuxInput.ABS_MT_TRACKING_ID, 6), syn(0.01),
        ])
        expectEqual(frames(events), [[Seen(1, .began, 50, 0)], [Seen(1, .ended, 50, 0), Seen(2, .began, 50, 0)]])
    }

    @Test func aSlotBeyondTheDevicesSlotsIsReportedAndIgnored() {
        var translator = EvdevTranslator(device: touchScreen(slots: 2), screen: testScreen)
        let events = translator.translate([
            abs(0, LinuxInput.ABS_MT_SLOT, 0), abs(0, LinuxInput.ABS_MT_TRACKING_ID, 1), abs(0, LinuxInput.ABS_MT_POSITION_X, 100),
            abs(0, LinuxInput.ABS_MT_SLOT, 2), abs(0, LinuxInput.ABS_MT_TRACKING_ID, 2), abs(0, LinuxInput.ABS_MT_POSITION_X, 900),
            abs(0, LinuxInput.ABS_MT_SLOT, 1), abs(0, LinuxInput.ABS_MT_TRACKING_ID, 3), abs(0, LinuxInput.ABS_MT_POSITION_X, 200),
            syn(0),
        ])
        expectEqual(frames(events), [[Seen(1, .began, 10, 0), Seen(2, .began, 20, 0)]])
        let diagnostics = translator.takeDiagnostics()
        expectEqual(diagnostics.count, 1)
        expectEqual(diagnostics.first?.contains("slot 2 is outside the device's 2 slots"), true)
    }

    @Test func unknownCodesAreReportedOnceAndTheRestIsRead() {
        var translator = EvdevTranslator(device: touchScreen(), screen: testScreen)
        var records = [record(0, 0x1e, 1, 1), abs(0, 0x7f, 3), record(0, LinuxInput.EV_SYN, 9, 0)]
        records += [abs(0, LinuxInput.ABS_MT_TRACKING_ID, 1), abs(0, LinuxInput.ABS_MT_POSITION_X, 100), syn(0)]
        let events = translator.translate(records)
        expectEqual(frames(events), [[Seen(1, .began, 10, 0)]])
        let diagnostics = translator.takeDiagnostics()
        expectEqual(diagnostics.count, 3)
        #expect(diagnostics[0].contains("unknown event type 30"))
        #expect(diagnostics[1].contains("unknown absolute axis 127"))
        #expect(diagnostics[2].contains("unknown EV_SYN code 9"))
    }

    @Test func aFloodOfOneProblemIsReportedAFewTimesThenCounted() {
        var translator = EvdevTranslator(device: touchScreen(), screen: testScreen)
        _ = translator.translate((0..<50).map { _ in abs(0, 0x7f, 1) })
        expectEqual(translator.takeDiagnostics().count, EvdevTranslatorTestsLimits.reports)
        // Counted, and the count is said when the input ends (or the window does).
        var events: [HIDEvent] = []
        translator.finish(into: &events)
        #expect(translator.takeDiagnostics().contains { $0.hasSuffix(": … and 45 more like it (unknown absolute axis)") })
    }

    @Test func problemsOfOneKindAreLimitedTogetherWhateverTheirCodes() {
        // Random bytes make every code a new value: keyed by code, 1 MB gave tens of thousands of lines.
        var translator = EvdevTranslator(device: touchScreen(), screen: testScreen)
        _ = translator.translate((0..<500).map { abs(0, UInt16(0x40 + $0 % 0x3f), 1) } + (0..<500).map { record(0, 0x1a + UInt16($0 % 200), 0, 0) })
        expectEqual(translator.takeDiagnostics().count, 2 * EvdevTranslatorTestsLimits.reports)
    }

    @Test func timestampsThatGoBackAreHeldAndReported() {
        var translator = EvdevTranslator(device: touchScreen(), screen: testScreen)
        let events = translator.translate([
            abs(5, LinuxInput.ABS_MT_TRACKING_ID, 1), syn(5),
            abs(4, LinuxInput.ABS_MT_POSITION_X, 100), syn(4),
            abs(6, LinuxInput.ABS_MT_POSITION_X, 200), syn(6),
        ])
        expectEqual(events.map(\.timestamp), [5, 5, 6])
        expectEqual(translator.takeDiagnostics().first?.contains("time goes back from 5.0 to 4.0 s"), true)
    }

    @Test func afterSynDroppedAStreamCancelsItsContactsAndIgnoresThemUntilTheyLift() {
        var translator = EvdevTranslator(device: touchScreen(), screen: testScreen)
        let events = translator.translate([
            abs(0, LinuxInput.ABS_MT_SLOT, 0), abs(0, LinuxInput.ABS_MT_TRACKING_ID, 100), abs(0, LinuxInput.ABS_MT_POSITION_X, 1000),
            abs(0, LinuxInput.ABS_MT_SLOT, 1), abs(0, LinuxInput.ABS_MT_TRACKING_ID, 101), abs(0, LinuxInput.ABS_MT_POSITION_X, 2000), syn(0),
            abs(0.02, LinuxInput.ABS_MT_POSITION_X, 2100),
            record(0.02, LinuxInput.EV_SYN, LinuxInput.SYN_DROPPED, 0),
            abs(0.03, LinuxInput.ABS_MT_SLOT, 0), abs(0.03, LinuxInput.ABS_MT_TRACKING_ID, -1), syn(0.03),
            abs(0.04, LinuxInput.ABS_MT_POSITION_X, 2400), syn(0.04),
            abs(0.05, LinuxInput.ABS_MT_SLOT, 0), abs(0.05, LinuxInput.ABS_MT_TRACKING_ID, 102), abs(0.05, LinuxInput.ABS_MT_POSITION_X, 500), syn(0.05),
            abs(0.06, LinuxInput.ABS_MT_SLOT, 1), abs(0.06, LinuxInput.ABS_MT_TRACKING_ID, -1), syn(0.06),
        ])
        #expect(frames(events) == [
            [Seen(1, .began, 100, 0), Seen(2, .began, 200, 0)],
            [Seen(1, .cancelled, 100, 0), Seen(2, .cancelled, 210, 0)],
            [Seen(3, .began, 50, 0)],
        ])
        expectEqual(events.map(\.timestamp), [0, 0.03, 0.05])
        #expect(translator.takeDiagnostics().contains { $0.contains("SYN_DROPPED") })
    }

    @Test func afterSynDroppedADeviceIsReadBack() {
        var translator = EvdevTranslator(device: touchScreen(), screen: testScreen)
        var slots = Array(repeating: EvdevDeviceState.Slot(trackingID: -1, x: 0, y: 0), count: 10)
        // Slot 0 lifted during the drop; slot 1 moved; slot 2 landed.
        slots[1] = EvdevDeviceState.Slot(trackingID: 101, x: 2500, y: 0)
        slots[2] = EvdevDeviceState.Slot(trackingID: 102, x: 3000, y: 100)
        let state = EvdevDeviceState(currentSlot: 2, slots: slots)
        translator.readDeviceState = { state }
        var events = translator.translate([
            abs(0, LinuxInput.ABS_MT_SLOT, 0), abs(0, LinuxInput.ABS_MT_TRACKING_ID, 100), abs(0, LinuxInput.ABS_MT_POSITION_X, 1000),
            abs(0, LinuxInput.ABS_MT_SLOT, 1), abs(0, LinuxInput.ABS_MT_TRACKING_ID, 101), abs(0, LinuxInput.ABS_MT_POSITION_X, 2000), syn(0),
            record(0.02, LinuxInput.EV_SYN, LinuxInput.SYN_DROPPED, 0),
            abs(0.03, LinuxInput.ABS_MT_POSITION_X, 9), syn(0.03),
        ])
        // The current slot came back as 2: a move there is slot 2's.
        events += translator.translate([abs(0.04, LinuxInput.ABS_MT_POSITION_X, 3100), syn(0.04)])
        #expect(frames(events) == [
            [Seen(1, .began, 100, 0), Seen(2, .began, 200, 0)],
            [Seen(1, .ended, 100, 0), Seen(2, .moved, 250, 0), Seen(3, .began, 300, 10)],
            [Seen(2, .stationary, 250, 0), Seen(3, .moved, 310, 10)],
        ])
    }

    @Test func theEndOfInputCancelsWhatIsStillDown() {
        var translator = EvdevTranslator(device: touchScreen(), screen: testScreen)
        var events = translator.translate([
            abs(0, LinuxInput.ABS_MT_TRACKING_ID, 1), abs(0, LinuxInput.ABS_MT_POSITION_X, 100), syn(0),
            abs(0.01, LinuxInput.ABS_MT_POSITION_X, 200),
        ])
        translator.finish(into: &events)
        expectEqual(frames(events), [[Seen(1, .began, 10, 0)], [Seen(1, .cancelled, 20, 0)]])
        let diagnostics = translator.takeDiagnostics()
        #expect(diagnostics.contains { $0.contains("inside a scan") })
    }

    @Test func moreContactsThanAnUnknownStreamsSlotsGrowUpToTheLimit() {
        var translator = EvdevTranslator(device: .unknown(name: "stream"), screen: testScreen)
        var records: [LinuxInputEvent] = []
        for slot in 0..<(EvdevTranslator.maximumSlotCount + 1) {
            records += [abs(0, LinuxInput.ABS_MT_SLOT, Int32(slot)), abs(0, LinuxInput.ABS_MT_TRACKING_ID, Int32(slot))]
        }
        records.append(syn(0))
        let events = translator.translate(records)
        expectEqual(frames(events).first?.count, EvdevTranslator.maximumSlotCount)
        #expect(translator.takeDiagnostics().contains { $0.contains("slot 64 is outside") })
    }
}

/// Regression tests for what the fuzz targets found.
@Suite struct EvdevTranslatorFuzzFindingsTests {
    /// Found by Fuzz/Targets/EvdevRecords: a key went down in a scan that
    /// never ended; at the end of input it "came up" though its going down
    /// had never been reported.
    @Test func aKeyInAScanThatNeverEndsIsNeverReported() {
        var translator = EvdevTranslator(device: .unknown(name: "stream"), screen: testScreen)
        var events = translator.translate([key(0, 30, 1), syn(0), key(1, 30, 0), syn(1), key(2, 61, 1)])
        translator.finish(into: &events)
        expectEqual(buttons(events).map(\.isDown), [true, false])
        expectEqual(buttons(events).map(\.usage), [0x04, 0x04])
    }

    /// The same through SYN_DROPPED: the dropped scan's key changes are undone.
    @Test func aKeyInADroppedScanIsNeverReported() {
        var translator = EvdevTranslator(device: .unknown(name: "stream"), screen: testScreen)
        translator.readDeviceState = { EvdevDeviceState(keysDown: []) }
        let events = translator.translate([
            key(0, 42, 1), key(0, 61, 1), record(0, LinuxInput.EV_SYN, LinuxInput.SYN_DROPPED, 0), syn(0),
            key(1, 30, 1), syn(1),
        ])
        expectEqual(buttons(events).map(\.usage), [0x04])
        expectEqual(buttons(events).map(\.modifierFlags), [0])
    }
}

enum EvdevTranslatorTestsLimits {
    /// How many times one problem is reported before it is counted silently.
    static let reports = 5
}
