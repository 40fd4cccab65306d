import CX11
import TestExpectations
import Testing
@testable import EventServer
import HID

/// The window's input, fed as X events shaped by hand: the mouse, keys,
/// and XInput 2 touches, which no X server on a test machine can make.
struct WindowInputTranslatorTests {
    /// A 200 × 100 point screen in a window of half a pixel per point.
    static func translator() -> WindowInputTranslator {
        WindowInputTranslator(screen: Screen(width: 200, height: 100, scale: 3), windowScale: 0.5)
    }

    @Test func theLeftButtonMakesOneIndirectPointerTouchInPoints() {
        var input = Self.translator()
        let events = input.translate([
            .motion(x: 5, y: 5),  // No button: no touch.
            .button(1, isDown: true, x: 10, y: 20),
            .motion(x: 30, y: 40),
            .motion(x: 500, y: -3),  // Past the window's edge (an implicit grab): held at the screen's edge.
            .button(1, isDown: false, x: 500, y: -3),
        ], at: 1.5)
        let seen = frames(events)
        let id = seen.first?.first?.id ?? 0
        expectEqual(seen, [[Seen(id, .began, 20, 40)], [Seen(id, .moved, 60, 80)], [Seen(id, .moved, 200, 0)], [Seen(id, .ended, 200, 0)]])
        #expect(events.allSatisfy { $0.timestamp == 1.5 })
        #expect(events.allSatisfy { if case .digitizer(let frame) = $0 { frame.contacts.allSatisfy { $0.kind == .indirectPointer } } else { false } })
        #expect(input.takeDiagnostics().isEmpty)
    }

    @Test func otherButtonsAndWheelsMakeNoTouch() {
        var input = Self.translator()
        let events = input.translate([.button(3, isDown: true, x: 1, y: 1), .button(4, isDown: true, x: 1, y: 1), .button(3, isDown: false, x: 1, y: 1)], at: 0)
        #expect(events.isEmpty)
    }

    @Test func keysAreUsagesAndAHeldKeyIsReportedOnce() {
        var input = Self.translator()
        // X key code 38 is evdev's KEY_A (30) + 8; 50 is KEY_LEFTSHIFT (42) + 8.
        let events = input.translate([
            .key(keycode: 50, isDown: true), .key(keycode: 38, isDown: true), .key(keycode: 38, isDown: true),  // auto-repeat
            .key(keycode: 38, isDown: false), .key(keycode: 50, isDown: false),
        ], at: 2)
        expectEqual(buttons(events).map { [$0.usagePage, $0.usage, $0.isDown ? 1 : 0] }, [[7, 0xE1, 1], [7, 0x04, 1], [7, 0x04, 0], [7, 0xE1, 0]])
        let shiftFlag = LinuxKeyUsages.modifierFlags[42] ?? 0
        #expect(buttons(events)[1].modifierFlags & shiftFlag != 0, "A pressed with shift held")
    }

    @Test func losingFocusLetsTheHeldKeysUp() {
        var input = Self.translator()
        var events = input.translate([.key(keycode: 38, isDown: true), .key(keycode: 40, isDown: true), .focusLost], at: 0)
        // KEY_A then KEY_D (32, X 40): both come up, and a later release of A is not reported again.
        events += input.translate([.key(keycode: 38, isDown: false)], at: 1)
        expectEqual(buttons(events).map { [$0.usage, $0.isDown ? 1 : 0] }, [[0x04, 1], [0x07, 1], [0x04, 0], [0x07, 0]])
        #expect(input.takeDiagnostics().isEmpty)
    }

    @Test func keyCodesOutsideTheEvdevRangeAreReported() {
        var input = Self.translator()
        #expect(input.translate([.key(keycode: 3, isDown: true)], at: 0).isEmpty)
        #expect(input.takeDiagnostics().contains { $0.contains("X key code 3") })
    }

    /// XInput 2 events as the X server sends them: `evtype`, `detail` (the touch id), `event_x`/`event_y`.
    static func xi(_ evtype: Int32, _ touch: Int32, _ x: Double, _ y: Double) -> WindowInputTranslator.Event {
        XInput2Touches.translate(evtype: evtype, detail: touch, x: x, y: y, time: 1000)!.event
    }

    @Test func xInputTouchesAreDirectTouchesKeptApartByTheirIds() {
        var input = Self.translator()
        let events = input.translate([
            Self.xi(XI_TouchBegin, 77, 10.5, 20.25),
            Self.xi(XI_TouchBegin, 78, 50, 30),
            Self.xi(XI_TouchUpdate, 77, 12, 22),
            Self.xi(XI_TouchEnd, 78, 50, 30),
            Self.xi(XI_TouchEnd, 77, 12, 22),
        ], at: 3)
        let seen = frames(events)
        let first = seen[0][0].id, second = seen[1][1].id
        #expect(first != second)
        // Fractions of a window pixel survive: 10.5 px is 21 points, 20.25 px is 40.5.
        #expect(seen == [
            [Seen(first, .began, 21, 40.5)],
            [Seen(first, .stationary, 21, 40.5), Seen(second, .began, 100, 60)],
            [Seen(first, .moved, 24, 44), Seen(second, .stationary, 100, 60)],
            [Seen(first, .stationary, 24, 44), Seen(second, .ended, 100, 60)],
            [Seen(first, .ended, 24, 44)],
        ])
        #expect(events.allSatisfy { if case .digitizer(let frame) = $0 { frame.contacts.allSatisfy { $0.kind == .finger } } else { false } })
        #expect(input.takeDiagnostics().isEmpty)
    }

    @Test func aTouchIdUsedAgainIsANewTouch() {
        var input = Self.translator()
        let events = input.translate([Self.xi(XI_TouchBegin, 5, 1, 1), Self.xi(XI_TouchEnd, 5, 1, 1), Self.xi(XI_TouchBegin, 5, 2, 2)], at: 0)
        let ids = frames(events).map { $0[0].id }
        #expect(ids.count == 3 && ids[0] == ids[1] && ids[2] != ids[0])
    }

    @Test func touchesPastTheLimitAndUnknownEndsAreIgnored() {
        var input = Self.translator()
        let begins = (0..<Int32(WindowInputTranslator.maximumTouches + 1)).map { Self.xi(XI_TouchBegin, 100 + $0, Double($0), 0) }
        let events = input.translate(begins + [Self.xi(XI_TouchUpdate, 999, 1, 1), Self.xi(XI_TouchEnd, 999, 1, 1)], at: 0)
        expectEqual(frames(events).count, WindowInputTranslator.maximumTouches)
        expectEqual(frames(events).last?.count, WindowInputTranslator.maximumTouches)
        #expect(input.takeDiagnostics().contains { $0.contains("touch 110") && $0.contains("past") })
    }

    @Test func otherXInputEventsAreNotTouches() {
        #expect(XInput2Touches.translate(evtype: XI_Motion, detail: 1, x: 0, y: 0, time: 0) == nil)
        #expect(XInput2Touches.translate(evtype: XI_TouchEnd, detail: -1, x: 0, y: 0, time: 5)?.event == .touch(UInt32.max, phase: .end, x: 0, y: 0))
    }

    @Test func theWindowGoingAwayCancelsWhatIsDown() {
        var input = Self.translator()
        var events = input.translate([.button(1, isDown: true, x: 1, y: 1), .key(keycode: 38, isDown: true)], at: 0)
        input.finish(at: 1, into: &events)
        expectEqual(frames(events).last?.map(\.phase), [.cancelled])
        expectEqual(buttons(events).last?.isDown, false)
    }
}

/// X server times mapped to the monotonic clock.
struct XServerTimeMapperTests {
    @Test func spacingIsKeptAndNoTimeIsLaterThanItsRead() {
        var mapper = XServerTimeMapper()
        // Three events 10 ms apart on the server, read together 50 ms after
        // the first: the last one, read with the least delay, anchors them all.
        let times = mapper.map(serverTimes: [5000, 5010, 5020], readTime: 100.050)
        expectEqual(times.map { ($0 * 1000).rounded() }, [100_030, 100_040, 100_050])
        // A later event waiting 30 ms keeps the anchor: stamped 30 ms before its read.
        expectEqual((mapper.map(serverTime: 6000, readTime: 101.060) * 1000).rounded(), 101_030)
        // An event read with less delay than the anchor's moves the anchor to it.
        expectEqual(mapper.map(serverTime: 7000, readTime: 102.020), 102.020)
    }

    @Test func theMillisecondCounterWrapping() {
        var mapper = XServerTimeMapper()
        let before = mapper.map(serverTime: UInt32.max - 4, readTime: 10)
        let after = mapper.map(serverTime: 5, readTime: 10.010)
        expectEqual(((after - before) * 1000).rounded(), 10)
    }

    @Test func clocksDriftingApartReanchorAndTimeNeverGoesBack() {
        var mapper = XServerTimeMapper()
        _ = mapper.map(serverTime: 1000, readTime: 50)
        // The server's clock stood still for a second: re-anchored to the read.
        expectEqual(mapper.map(serverTime: 1001, readTime: 51), 51)
        #expect(mapper.map(serverTime: 900, readTime: 51.001) >= 51, "a server time going back does not make time go back")
        #expect(mapper.latest(readTime: 99) >= 51)
    }
}
