import HID

/// Drives the real input path with synthetic fingers: every call builds
/// digitizer frames, sends them to the application's input port in the HID
/// wire format, and returns once the run loop has handled everything that
/// is due. Nothing is called on views directly.
///
/// Creating a synthesizer puts the application on a manual clock, so time
/// moves only through ``advance(by:)``; each frame carries the clock's time.
/// Every frame lists all of the synthesizer's fingers on the glass, the ones
/// that did not change as stationary, as a touch screen does.
///
/// Each call is one frame of the touch screen delivered on its own (a
/// run-loop turn), except ``touchMove(_:through:sampleInterval:)``, which
/// sends several samples of a finger within one frame, to be delivered as
/// one move with its coalesced touches.
///
/// A new synthesizer is a new touch screen: fingers an earlier one left on
/// the glass are cancelled (through the input path, as the system cancels
/// touches), and its first tap starts a new tap sequence. So a test that
/// makes its own window and synthesizer starts clean without resetting the
/// application.
@preconcurrency @MainActor
public final class TouchSynthesizer {
    public let window: UIWindow
    private let application: UIApplication
    // Touched for every frame sent, only on the main actor and never through
    // overlapping inout accesses: dynamic exclusivity checks would only cost time.
    @exclusivity(unchecked) private var fingers: [(id: Int, location: CGPoint, kind: DigitizerContact.Kind)] = []
    @exclusivity(unchecked) private var nextFinger = 1
    @exclusivity(unchecked) private var spareContacts: [DigitizerContact] = []

    /// Points given to this synthesizer are in `window`'s coordinates.
    public init(window: UIWindow) {
        self.window = window
        self.application = .shared
        application.runLoop.useManualClock()
        takeOverTheTouchScreen()
    }

    private func takeOverTheTouchScreen() {
        let leftDown = application.touchScreenFingersDown
        if !leftDown.isEmpty {
            var contacts: [DigitizerContact] = []
            for finger in leftDown {
                contacts.append(DigitizerContact(identifier: finger.identifier, phase: .cancelled, x: finger.location.x, y: finger.location.y))
            }
            send(contacts)
        }
        application.touchRouter.startNewTapSequence()
    }

    /// The time the next frame will carry.
    public var now: TimeInterval { application.runLoop.clock.now }

    /// Puts one finger down; returns its identifier. `type` is what touches
    /// the glass: a finger (`.direct`) by default, or a stylus (`.pencil`),
    /// a mouse pointer (`.indirectPointer`) or an indirect touch surface.
    @discardableResult
    public func touchDown(at point: CGPoint, type: UITouch.TouchType = .direct) -> Int {
        let id = nextFinger
        putDown(CollectionOfOne(point), kind: Self.contactKind(of: type))
        return id
    }

    /// Puts several fingers down in one frame; returns their identifiers.
    @discardableResult
    public func touchDown(at points: [CGPoint], type: UITouch.TouchType = .direct) -> [Int] {
        let first = nextFinger
        putDown(points, kind: Self.contactKind(of: type))
        return Array(first..<nextFinger)
    }

    private static func contactKind(of type: UITouch.TouchType) -> DigitizerContact.Kind {
        switch type {
        case .direct: .finger
        case .indirect: .indirect
        case .pencil: .stylus
        case .indirectPointer: .indirectPointer
        }
    }

    /// One frame in which `points` land, with the fingers already down stationary.
    private func putDown(_ points: some Collection<CGPoint>, kind: DigitizerContact.Kind) {
        let first = nextFinger
        for (offset, point) in points.enumerated() { fingers.append((first + offset, point, kind)) }
        nextFinger += points.count
        send(frame(.began) { $0 >= first })
    }

    public func touchMove(_ finger: Int, to point: CGPoint) {
        move(CollectionOfOne((finger: finger, to: point)))
    }

    /// Moves several fingers in one frame.
    public func touchMove(_ moves: [(finger: Int, to: CGPoint)]) {
        move(moves)
    }

    private func move(_ moves: some Collection<(finger: Int, to: CGPoint)>) {
        var movedAny = false
        for index in fingers.indices {
            for move in moves where move.finger == fingers[index].id {
                fingers[index].location = move.to
                movedAny = true
            }
        }
        guard movedAny else { return }
        send(frame(.moved) { id in moves.anySatisfy { $0.finger == id } })
    }

    /// Moves a finger through `points` within one frame: one digitizer
    /// frame per point, `sampleInterval` seconds apart, as a touch screen
    /// that scans faster than the display refreshes reports them between
    /// two refreshes. The clock moves on by `sampleInterval` between points
    /// (timers due meanwhile fire at their time), and the frames reach the
    /// application together, before its run loop turns: the view gets one
    /// `touchesMoved`, with the touch at the last point and every point, in
    /// order and with its own time, in `event.coalescedTouches(for:)`.
    ///
    /// Every other call sends its frame and runs the run loop, so each of
    /// their frames is delivered on its own.
    public func touchMove(_ finger: Int, through points: [CGPoint], sampleInterval: TimeInterval) {
        guard let index = fingers.firstIndex(where: { $0.id == finger }) else { return }
        var frames: [DigitizerFrame] = []
        for (offset, point) in points.enumerated() {
            if offset > 0 { application.runLoop.advance(by: sampleInterval) }
            fingers[index].location = point
            var contacts: [DigitizerContact] = []
            for other in fingers {
                contacts.append(contact(other.id, other.id == finger ? .moved : .stationary, other.location, other.kind))
            }
            frames.append(DigitizerFrame(timestamp: now, contacts: contacts))
        }
        for frame in frames { application.inputPort.send(.digitizer(frame)) }
        application.runLoop.runUntilIdle()
    }

    public func touchUp(_ finger: Int) {
        lift(CollectionOfOne(finger), phase: .ended)
    }

    /// Lifts several fingers in one frame.
    public func touchUp(_ ids: [Int]) {
        lift(ids, phase: .ended)
    }

    /// Lifts the fingers `ids` and moves others in the same frame, as a
    /// touch screen reports a finger that lifts in the same scan as another
    /// moves.
    public func touchUp(_ ids: [Int], moving moves: [(finger: Int, to: CGPoint)]) {
        guard fingers.anySatisfy({ ids.contains($0.id) }) else { return move(moves) }
        var contacts: [DigitizerContact] = []
        for index in fingers.indices {
            let id = fingers[index].id
            var phase = DigitizerContact.Phase.stationary
            if ids.contains(id) {
                phase = .ended
            } else if let move = moves.last(where: { $0.finger == id }) {
                fingers[index].location = move.to
                phase = .moved
            }
            contacts.append(contact(id, phase, fingers[index].location, fingers[index].kind))
        }
        fingers.removeEvery { ids.contains($0.id) }
        send(contacts)
    }

    /// The system takes every finger away (an incoming call, say): each is
    /// reported cancelled.
    public func cancelAllTouches() {
        lift(fingers.mapped(\.id), phase: .cancelled)
    }

    /// One finger down and up at `point`, at the same instant.
    public func tap(at point: CGPoint) {
        touchUp(touchDown(at: point))
    }

    /// Moves the manual clock forward, running every timer that falls due.
    public func advance(by seconds: TimeInterval) {
        application.runLoop.advance(by: seconds)
    }

    // MARK: Buttons, keys and motion (usage codes: `HIDPressUsage`)

    /// Presses a button of a remote (`.select`, `.menu`, an arrow…) or, for a
    /// keyboard key's press type, that key.
    public func pressDown(_ type: UIPress.PressType) {
        sendButton(type, isDown: true, modifierFlags: [])
    }

    public func pressUp(_ type: UIPress.PressType) {
        sendButton(type, isDown: false, modifierFlags: [])
    }

    /// Presses a keyboard key with `modifierFlags` held.
    public func keyDown(_ key: UIKeyboardHIDUsage, modifierFlags: UIKeyModifierFlags = []) {
        sendButton(UIPress.PressType(keyboardKey: key), isDown: true, modifierFlags: modifierFlags)
    }

    public func keyUp(_ key: UIKeyboardHIDUsage, modifierFlags: UIKeyModifierFlags = []) {
        sendButton(UIPress.PressType(keyboardKey: key), isDown: false, modifierFlags: modifierFlags)
    }

    /// The device is shaken: a shake begins and ends at this instant.
    public func shake() {
        for phase in [MotionEvent.Phase.began, .ended] {
            application.inputPort.send(.motion(MotionEvent(timestamp: now, kind: .shake, phase: phase)))
        }
        application.runLoop.runUntilIdle()
    }

    /// Sends the button event for `type`; a type that no usage reports (see
    /// `HIDPressUsage`) cannot be pressed, and sends nothing.
    private func sendButton(_ type: UIPress.PressType, isDown: Bool, modifierFlags: UIKeyModifierFlags) {
        guard let (page, usage) = HIDPressUsage.usage(of: type) else { return }
        application.inputPort.send(.button(ButtonEvent(
            timestamp: now, usagePage: page, usage: usage, isDown: isDown,
            modifierFlags: UInt32(truncatingIfNeeded: modifierFlags.rawValue))))
        application.runLoop.runUntilIdle()
    }

    private func lift(_ ids: some Collection<Int>, phase: DigitizerContact.Phase) {
        guard fingers.anySatisfy({ ids.contains($0.id) }) else { return }
        let contacts = frame(phase) { ids.contains($0) }
        fingers.removeEvery { ids.contains($0.id) }
        send(contacts)
    }

    /// The contacts of one frame: the fingers `isReported` picks in `phase`,
    /// then every other finger as stationary. The storage is the last
    /// frame's, which the port has encoded and let go of.
    private func frame(_ phase: DigitizerContact.Phase, reporting isReported: (Int) -> Bool) -> [DigitizerContact] {
        var contacts: [DigitizerContact] = []
        swap(&contacts, &spareContacts)
        contacts.removeAllKeepingStorage()
        for finger in fingers where isReported(finger.id) { contacts.append(contact(finger.id, phase, finger.location, finger.kind)) }
        for finger in fingers where !isReported(finger.id) { contacts.append(contact(finger.id, .stationary, finger.location, finger.kind)) }
        return contacts
    }

    /// Sends one frame and runs the run loop until everything due is done.
    private func send(_ contacts: [DigitizerContact]) {
        let runLoop = application.runLoop
        application.inputPort.send(.digitizer(DigitizerFrame(timestamp: runLoop.clock.now, contacts: contacts)))
        spareContacts = contacts
        runLoop.runUntilIdle()
    }

    private func contact(
        _ id: Int, _ phase: DigitizerContact.Phase, _ windowPoint: CGPoint, _ kind: DigitizerContact.Kind
    ) -> DigitizerContact {
        let screen = window.layer.convertToSuperlayer(windowPoint)
        return DigitizerContact(identifier: UInt32(truncatingIfNeeded: id), phase: phase, x: screen.x, y: screen.y, kind: kind)
    }
}
