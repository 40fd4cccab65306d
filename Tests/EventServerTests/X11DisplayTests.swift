import CX11
import Glibc
import TestExpectations
import Testing
@testable import EventServer
import HID

/// The X window output under a real X server (Xvfb, one per test): the
/// window's pixels read back with XGetImage, input made with xdotool.
@Suite(.serialized, Xvfb.enabled)
struct X11DisplayTests {
    /// A frame of distinct colours per pixel, so that any misplaced or
    /// misaveraged pixel shows.
    static func pattern(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        (UInt8(truncatingIfNeeded: x * 7 + y), UInt8(truncatingIfNeeded: y * 5 + 3), UInt8(truncatingIfNeeded: x * y + 40))
    }

    /// What `frame` should look like in `output`'s window: each window
    /// pixel the rounded mean of its box of frame pixels.
    static func expectedPixels(of frame: TestFrame, in output: X11Display) -> [UInt32] {
        let factor = frame.width / output.windowWidth
        return (0..<output.windowHeight).flatMap { y in (0..<output.windowWidth).map { x in frame.averaged(x: x, y: y, factor: factor) } }
    }

    /// Shows `frame` whole, waits until it is drawn, and reads the window back.
    static func showWhole(_ frame: TestFrame, in output: X11Display, on server: Xvfb) -> [UInt32] {
        frame.withFrame { output.show($0, damage: [.whole(frame.width, frame.height)]) }
        output.synchronize()
        return server.pixels(of: output.window, width: output.windowWidth, height: output.windowHeight)
    }

    @Test func aShownFrameIsWhatTheWindowHoldsAveragedToItsScale() throws {
        let server = try Xvfb()
        let output = try X11Display(screen: Screen(width: 40, height: 30, scale: 2), displayName: server.name)
        #expect(output.usesSharedMemory, "a local Xvfb has MIT-SHM")
        #expect((output.windowWidth, output.windowHeight) == (40, 30))
        #expect(output.notes.isEmpty, "\(output.notes)")
        let frame = TestFrame(width: 80, height: 60, color: Self.pattern)
        expectEqual(Self.showWhole(frame, in: output, on: server), Self.expectedPixels(of: frame, in: output))
        #expect(output.handleEvents().diagnostics.isEmpty)
    }

    @Test func onlyTheDamagedPartOfALaterFrameChanges() throws {
        let server = try Xvfb()
        let output = try X11Display(screen: Screen(width: 32, height: 24, scale: 1), displayName: server.name)
        let first = TestFrame(width: 32, height: 24, color: Self.pattern)
        first.withFrame { output.show($0, damage: [.whole(32, 24)]) }
        // The second frame differs everywhere, but says only two rectangles changed.
        let second = TestFrame(width: 32, height: 24) { x, y in (200, UInt8(x), UInt8(y)) }
        let damage = [ServerMessage.PixelRect(x: 3, y: 4, width: 5, height: 6), ServerMessage.PixelRect(x: 20, y: 10, width: 12, height: 14)]
        second.withFrame { output.show($0, damage: damage) }
        output.synchronize()
        let shown = server.pixels(of: output.window, width: 32, height: 24)
        for y in 0..<24 {
            for x in 0..<32 {
                let damaged = damage.contains { x >= $0.x && x < $0.x + $0.width && y >= $0.y && y < $0.y + $0.height }
                let source = damaged ? second : first
                expectEqual(shown[y * 32 + x], source.averaged(x: x, y: y, factor: 1), "pixel (\(x), \(y)), damaged: \(damaged)")
            }
        }
    }

    /// An application that scrolled by turning its buffer's ring of rows
    /// commits the row its frame starts at: the window shows the frame,
    /// averaged across the ring's wrap (7 is odd: the wrap falls inside a
    /// 2 × 2 box), by MIT-SHM and by XPutImage alike.
    @Test(arguments: [true, false])
    func aFrameInARingOfRowsIsShownFromItsFirstRow(sharedMemory: Bool) throws {
        let server = try Xvfb(extraArguments: sharedMemory ? [] : ["-extension", "MIT-SHM"])
        let output = try X11Display(screen: Screen(width: 40, height: 30, scale: 2), displayName: server.name)
        expectEqual(output.usesSharedMemory, sharedMemory)
        let frame = TestFrame(width: 80, height: 60, color: Self.pattern)
        frame.withFrame(firstRow: 7) { output.show($0, damage: [.whole(80, 60)]) }
        output.synchronize()
        expectEqual(server.pixels(of: output.window, width: 40, height: 30), Self.expectedPixels(of: frame, in: output))
        // A later frame's damage across the wrap, turned further.
        let second = TestFrame(width: 80, height: 60) { x, y in (200, UInt8(x), UInt8(y)) }
        second.withFrame(firstRow: 25) { output.show($0, damage: [.init(x: 10, y: 30, width: 40, height: 8)]) }
        output.synchronize()
        let shown = server.pixels(of: output.window, width: 40, height: 30)
        for y in 0..<30 {
            for x in 0..<40 {
                let source = (5..<25).contains(x) && (15..<19).contains(y) ? second : frame
                expectEqual(shown[y * 40 + x], source.averaged(x: x, y: y, factor: 2), "pixel (\(x), \(y))")
            }
        }
    }

    /// A flung list's frames pass its scroll: the window moves its own
    /// pixels (XCopyArea, and the shadow) where the scroll moves whole
    /// window pixels (an even number of rows at 2×, a multiple of 3 at
    /// 3×), converts the rows brought into view, and converts the whole
    /// list where it does not. After every frame the window holds the frame: a
    /// scroll with other damage, scrolls up and down, two scrolls shown at
    /// one refresh (the server combined a late frame's with the next), a
    /// frame in a ring of rows; by MIT-SHM and by XPutImage alike, and
    /// with a 3× frame (its own conversion loop; whole points are 3 rows).
    @Test(arguments: [(true, 2), (false, 2), (true, 3)])
    func aScrolledListIsMovedInTheWindowAndEveryFrameShownIsTheFrame(sharedMemory: Bool, scale: Int) throws {
        let server = try Xvfb(extraArguments: sharedMemory ? [] : ["-extension", "MIT-SHM"])
        let output = try X11Display(screen: Screen(width: 40, height: 30, scale: Double(scale)), displayName: server.name)
        expectEqual(output.usesSharedMemory, sharedMemory)
        var list = ScrolledList(width: 40 * scale, height: 30 * scale, rows: 5 * scale..<25 * scale)
        expectEqual(Self.showWhole(list.frame, in: output, on: server), Self.expectedPixels(of: list.frame, in: output))
        func step(_ commit: ServerMessage.FrameCommit, firstRow: Int = 0, _ name: String) {
            let frame = list.frame
            frame.withFrame(firstRow: firstRow) { output.show($0, scrolls: commit.scrolls, damage: commit.damage) }
            output.synchronize()
            expectEqual(server.pixels(of: output.window, width: 40, height: 30), Self.expectedPixels(of: frame, in: output), "\(name)")
        }
        step(list.scroll(by: 4), "up 4 rows")
        step(list.scroll(by: 3), "up 3 rows")
        step(list.scroll(by: -6), "down 6 rows")
        step(list.scroll(by: 9), "up 9 rows")
        step(list.scroll(by: 2, header: 150), "up 2 rows, and the header")
        step(list.scroll(by: 8), firstRow: 7, "up 8 rows in a ring of rows")
        let late = list.scroll(by: 2, header: 90), next = list.scroll(by: 4)
        step(ApplicationFrames.combining(late, then: next), "two scrolls at one refresh")
        let odd = list.scroll(by: 1, header: 20), even = list.scroll(by: 2 * scale)
        step(ApplicationFrames.combining(odd, then: even), "a scroll of part of a window pixel and one of whole ones at one refresh")
        #expect(output.handleEvents().diagnostics.isEmpty)
    }

    /// While the X server has not read the shared image yet, changes wait
    /// in the shadow; a scroll's XCopyArea then moves pixels of the window
    /// that are not yet what the shadow holds: the changes waiting are
    /// carried to where they land, and the window ends up with the frame.
    @Test func aScrollWhileAPutIsOutstandingCarriesTheChangesStillWaiting() throws {
        let server = try Xvfb()
        let output = try X11Display(screen: Screen(width: 40, height: 30, scale: 2), displayName: server.name)
        #expect(output.usesSharedMemory)
        output.synchronize()
        var list = ScrolledList(width: 80, height: 60, rows: 10..<50)
        let first = list.frame
        kill(server.processIdentifier, SIGSTOP)
        first.withFrame { output.show($0, damage: [.whole(80, 60)]) }
        // Waiting in the shadow: rows 20 to 27 of the list redrawn.
        list.offset += 100
        let redrawn = list.frame
        redrawn.withFrame { output.show($0, damage: [.init(x: 0, y: 20, width: 80, height: 8)]) }
        func pixel(_ frame: TestFrame, _ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
            let offset = (y * 80 + x) * 4
            return (frame.bytes[offset], frame.bytes[offset + 1], frame.bytes[offset + 2])
        }
        let before = TestFrame(width: 80, height: 60) { x, y in pixel((20..<28).contains(y) ? redrawn : first, x, y) }
        // The application's next frame scrolls the list up by 6 rows (the
        // redrawn band lands at rows 14 to 21) and draws its last 6 rows.
        let commit = ServerMessage.FrameCommit(
            commitIdentifier: 1, bufferIdentifier: 1, scrolls: [.init(rect: list.listRect, dx: 0, dy: -6)],
            damage: [.init(x: 0, y: 44, width: 80, height: 6)])
        let expected = TestFrame(width: 80, height: 60) { x, y in
            (10..<44).contains(y) ? pixel(before, x, y + 6) : (44..<50).contains(y) ? pixel(redrawn, x, y) : pixel(before, x, y)
        }
        expected.withFrame { output.show($0, scrolls: commit.scrolls, damage: commit.damage) }
        kill(server.processIdentifier, SIGCONT)
        output.synchronize()
        expectEqual(server.pixels(of: output.window, width: 40, height: 30), Self.expectedPixels(of: expected, in: output))
    }

    @Test func aWindowScaleShrinksTheWindowAndAveragesTheFrame() throws {
        let server = try Xvfb()
        let output = try X11Display(screen: Screen(width: 60, height: 40, scale: 2), windowScale: 0.5, displayName: server.name)
        #expect((output.windowWidth, output.windowHeight) == (30, 20))
        let frame = TestFrame(width: 120, height: 80, color: Self.pattern)
        expectEqual(Self.showWhole(frame, in: output, on: server), Self.expectedPixels(of: frame, in: output))
    }

    @Test func aStalledXServerNeitherBlocksShowNorSeesTheSharedImageChangeUnderIt() throws {
        let server = try Xvfb()
        let output = try X11Display(screen: Screen(width: 48, height: 32, scale: 1), displayName: server.name)
        #expect(output.usesSharedMemory)
        output.synchronize()
        let first = TestFrame(width: 48, height: 32, color: Self.pattern)
        let second = TestFrame(width: 48, height: 32) { x, y in (UInt8(x), 250, UInt8(y)) }
        // The X server stops: the first frame's put waits in its socket, unread.
        kill(server.processIdentifier, SIGSTOP)
        first.withFrame { output.show($0, damage: [.whole(48, 32)]) }
        // With the shared image still to be read, the second frame must wait
        // in the window's own copy: show returns without touching the image.
        second.withFrame { output.show($0, damage: [.whole(48, 32)]) }
        kill(server.processIdentifier, SIGCONT)
        // The X server reads the image for the first put: it holds the first frame.
        var shown: [UInt32] = []
        for _ in 0..<200 where !shown.contains(where: { $0 != 0 }) {
            shown = server.pixels(of: output.window, width: 48, height: 32)
            usleep(10_000)
        }
        expectEqual(shown, Self.expectedPixels(of: first, in: output))
        // Its completion lets the second frame go out.
        output.synchronize()
        expectEqual(server.pixels(of: output.window, width: 48, height: 32), Self.expectedPixels(of: second, in: output))
    }

    @Test func aScreenLargerThanTheXScreenIsScaledToFitAndSaysSo() throws {
        let server = try Xvfb()
        let output = try X11Display(screen: Screen(width: 2560, height: 512, scale: 1), displayName: server.name)
        expectEqual(output.windowScale, 0.5)
        #expect((output.windowWidth, output.windowHeight) == (1280, 256))
        #expect(output.notes.contains { $0.contains("does not fit") && $0.contains("0.5") }, "\(output.notes)")
    }

    @Test func withoutMITSHMFramesGoByXPutImage() throws {
        let server = try Xvfb(extraArguments: ["-extension", "MIT-SHM"])
        let output = try X11Display(screen: Screen(width: 24, height: 16, scale: 1), displayName: server.name)
        #expect(!output.usesSharedMemory)
        #expect(output.notes.contains { $0.contains("MIT-SHM is not used") }, "\(output.notes)")
        let frame = TestFrame(width: 24, height: 16, color: Self.pattern)
        expectEqual(Self.showWhole(frame, in: output, on: server), Self.expectedPixels(of: frame, in: output))
    }

    @Test func anExposedWindowIsRepaintedFromItsOwnCopy() throws {
        let server = try Xvfb()
        let output = try X11Display(screen: Screen(width: 20, height: 20, scale: 1), displayName: server.name)
        let frame = TestFrame(width: 20, height: 20, color: Self.pattern)
        expectEqual(Self.showWhole(frame, in: output, on: server), Self.expectedPixels(of: frame, in: output))
        // Xvfb keeps no backing store: unmapping loses the pixels, mapping exposes the window.
        XUnmapWindow(server.display, output.window)
        XMapWindow(server.display, output.window)
        XSync(server.display, 0)
        _ = pump(output, timeout: 0.3) { _ in false }
        output.synchronize()
        expectEqual(server.pixels(of: output.window, width: 20, height: 20), Self.expectedPixels(of: frame, in: output))
    }

    @Test func theTitleIsTheWindowsName() throws {
        let server = try Xvfb()
        let output = try X11Display(screen: Screen(width: 20, height: 20, scale: 1), displayName: server.name)
        output.setTitle("Demo — Café")
        output.synchronize()
        var name: UnsafeMutablePointer<CChar>?
        XFetchName(server.display, output.window, &name)
        expectEqual(name.map { String(cString: $0) }, "Demo — Café", "WM_NAME holds the title's bytes")
        if let name { XFree(name) }
        var type: Atom = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        XGetWindowProperty(server.display, output.window, XInternAtom(server.display, "_NET_WM_NAME", 0), 0, 100, 0, Atom(AnyPropertyType), &type, &format, &count, &after, &data)
        expectEqual(data.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(count)), as: UTF8.self) }, "Demo — Café")
        if let data { XFree(data) }
    }

    @Test func aMouseDragIsOneIndirectPointerTouchInPoints() throws {
        let server = try Xvfb()
        // Half a pixel per point: window pixel (10, 20) is point (20, 40).
        let output = try X11Display(screen: Screen(width: 200, height: 100, scale: 1), windowScale: 0.5, displayName: server.name)
        output.synchronize()
        let window = String(output.window)
        try server.xdotool(["mousemove", "--window", window, "10", "20", "mousedown", "1", "mousemove", "--window", window, "30", "40", "mouseup", "1"])
        let events = pump(output) { events in frames(events.input).joined().contains { $0.phase == .ended } }
        let seen = frames(events.input)
        let id = seen.first?.first?.id ?? 0
        // One touch from button down to button up, in points.
        expectEqual(seen, [[Seen(id, .began, 20, 40)], [Seen(id, .moved, 60, 80)], [Seen(id, .ended, 60, 80)]])
        let kinds = events.input.flatMap { event -> [DigitizerContact.Kind] in
            if case .digitizer(let frame) = event { return frame.contacts.map(\.kind) }
            return []
        }
        #expect(!kinds.isEmpty && kinds.allSatisfy { $0 == .indirectPointer })
        let times = events.input.map(\.timestamp)
        expectEqual(times, times.sorted())
        #expect(times.allSatisfy { abs($0 - X11Display.now()) < 10 }, "CLOCK_MONOTONIC times: \(times)")
        #expect(events.diagnostics.isEmpty, "\(events.diagnostics)")
    }

    @Test func inputXlibReadInsideAnotherCallIsReportedAsPending() throws {
        let server = try Xvfb()
        let output = try X11Display(screen: Screen(width: 100, height: 100, scale: 1), displayName: server.name)
        output.synchronize()
        #expect(!output.hasPendingEvents)
        try server.xdotool(["mousemove", "--window", String(output.window), "10", "10", "click", "1"])
        // Reading the connection outside handleEvents (as a show may) takes
        // the click off the socket: poll would no longer report it.
        output.synchronize()
        #expect(output.hasPendingEvents)
        let events = output.handleEvents()
        expectEqual(frames(events.input).map { $0.map(\.phase) }, [[.began], [.ended]])
        #expect(!output.hasPendingEvents)
    }

    @Test func aKeyIsItsHIDUsage() throws {
        let server = try Xvfb()
        let output = try X11Display(screen: Screen(width: 100, height: 100, scale: 1), displayName: server.name)
        output.synchronize()
        try server.xdotool(["windowfocus", "--sync", String(output.window), "key", "a"])
        let events = pump(output) { buttons($0.input).count >= 2 }
        // KEY_A, X key code 38 with the evdev key codes, is usage 0x04 of the keyboard page.
        expectEqual(buttons(events.input).map { [$0.usagePage, $0.usage, $0.isDown ? 1 : 0] }, [[0x07, 0x04, 1], [0x07, 0x04, 0]])
    }

    @Test func closingTheWindowClosesTheOutput() throws {
        let server = try Xvfb()
        let output = try X11Display(screen: Screen(width: 50, height: 50, scale: 1), displayName: server.name)
        output.synchronize()
        #expect(!output.handleEvents().isClosed)
        // What a window manager sends when the close button is pressed.
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = output.window
        event.xclient.message_type = XInternAtom(server.display, "WM_PROTOCOLS", 0)
        event.xclient.format = 32
        event.xclient.data.l.0 = Int(bitPattern: XInternAtom(server.display, "WM_DELETE_WINDOW", 0))
        XSendEvent(server.display, output.window, 0, 0, &event)
        XSync(server.display, 0)
        #expect(pump(output) { $0.isClosed }.isClosed)
    }

    @Test func aDeadXServerClosesTheOutputWithADiagnosticAndNoCrash() throws {
        let server = try Xvfb()
        let output = try X11Display(screen: Screen(width: 50, height: 50, scale: 1), displayName: server.name)
        let frame = TestFrame(width: 50, height: 50, color: Self.pattern)
        expectEqual(Self.showWhole(frame, in: output, on: server), Self.expectedPixels(of: frame, in: output))
        server.stop(abruptly: true)
        let events = pump(output) { $0.isClosed }
        #expect(events.isClosed)
        #expect(events.diagnostics.contains { $0.contains("connection to the X display") && $0.contains("lost") }, "\(events.diagnostics)")
        // Everything after is a no-op, not a crash.
        frame.withFrame { output.show($0, damage: [.whole(50, 50)]) }
        output.setTitle("after")
        #expect(output.handleEvents().diagnostics.isEmpty)
    }

    @Test func theWindowAsksForXInputTouches() throws {
        let server = try Xvfb()
        let output = try X11Display(screen: Screen(width: 50, height: 50, scale: 1), displayName: server.name)
        #expect(!output.notes.contains { $0.contains("no touches") }, "Xvfb speaks XInput 2.2+ and libXi.so.6 is here: \(output.notes)")
    }

    @Test func aMissingDisplayIsAClearError() {
        #expect(throws: DisplayError.cannotOpenXDisplay(name: ":4093")) {
            try X11Display(screen: .standard, displayName: ":4093")
        }
        #expect(DisplayError.cannotOpenXDisplay(name: ":4093").description.contains("--display headless"))
        #expect(throws: DisplayError.invalidWindowScale(0)) {
            try X11Display(screen: .standard, windowScale: 0)
        }
    }
}
