import HID
import TestExpectations
import Testing
@testable import UIKit

/// A name for each press type the tests use.
@MainActor
private func describe(_ presses: Set<UIPress>) -> String {
    presses.map { press in
        switch press.type {
        case .select: "select"
        case .menu: "menu"
        case .playPause: "playPause"
        case .upArrow: "up"
        case .leftArrow: "left"
        default: press.key.map { "key \($0.characters)" } ?? "type \(press.type.rawValue)"
        }
    }.sorted().joined(separator: ",")
}

/// Logs presses and motions; passes them on (calls super) unless `handles`.
@MainActor
final class PressView: UIView {
    var name = ""
    var log: CallLog?
    var handles = true
    var lastPresses: Set<UIPress> = []
    var lastEvent: UIPressesEvent?

    convenience init(_ name: String, log: CallLog, frame: CGRect = CGRect(x: 0, y: 0, width: 100, height: 100)) {
        self.init(frame: frame)
        self.name = name
        self.log = log
    }

    override var canBecomeFirstResponder: Bool { true }

    private func record(_ phase: String, _ presses: Set<UIPress>, _ event: UIPressesEvent?) {
        log?.add("\(name) \(phase) \(describe(presses))")
        lastPresses = presses
        lastEvent = event
    }

    override func pressesBegan(_ presses: Set<UIPress>, with event: UIPressesEvent?) {
        record("began", presses, event)
        if !handles { super.pressesBegan(presses, with: event) }
    }

    override func pressesEnded(_ presses: Set<UIPress>, with event: UIPressesEvent?) {
        record("ended", presses, event)
        if !handles { super.pressesEnded(presses, with: event) }
    }

    override func pressesCancelled(_ presses: Set<UIPress>, with event: UIPressesEvent?) {
        record("cancelled", presses, event)
        if !handles { super.pressesCancelled(presses, with: event) }
    }

    override func motionBegan(_ motion: UIEvent.EventSubtype, with event: UIEvent?) {
        log?.add("\(name) motion began \(motion == .motionShake ? "shake" : "?")")
        if !handles { super.motionBegan(motion, with: event) }
    }

    override func motionEnded(_ motion: UIEvent.EventSubtype, with event: UIEvent?) {
        log?.add("\(name) motion ended \(motion == .motionShake ? "shake" : "?")")
        if !handles { super.motionEnded(motion, with: event) }
    }

    override func motionCancelled(_ motion: UIEvent.EventSubtype, with event: UIEvent?) {
        log?.add("\(name) motion cancelled")
    }

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { log?.add("\(name) touch began") }
    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { log?.add("\(name) touch ended") }
}

/// A window that logs the presses and motions it gets, then passes them on.
@MainActor
final class PressWindow: UIWindow {
    var log: CallLog?

    override func pressesBegan(_ presses: Set<UIPress>, with event: UIPressesEvent?) {
        log?.add("window began \(describe(presses))")
        super.pressesBegan(presses, with: event)
    }

    override func motionBegan(_ motion: UIEvent.EventSubtype, with event: UIEvent?) {
        log?.add("window motion began")
        super.motionBegan(motion, with: event)
    }
}

/// The end of the chain: logs what reaches it.
@MainActor
final class PressDelegate: UIResponder, UIApplicationDelegate {
    var log: CallLog?

    override func pressesBegan(_ presses: Set<UIPress>, with event: UIPressesEvent?) {
        log?.add("delegate began \(describe(presses))")
    }

    override func motionBegan(_ motion: UIEvent.EventSubtype, with event: UIEvent?) {
        log?.add("delegate motion began")
    }
}

/// Key window ← parent ← leaf, a logging delegate, and a synthesizer.
@MainActor
struct PressScene {
    let log = CallLog()
    let window: PressWindow
    let parent: PressView
    let leaf: PressView
    let delegate = PressDelegate()
    let synthesizer: TouchSynthesizer

    init() {
        UIApplication.shared.resetForTesting()
        UIApplication.shared.diagnostics.handler = nil
        window = PressWindow(frame: CGRect(x: 0, y: 0, width: 400, height: 800))
        window.makeKeyAndVisible()
        window.log = log
        parent = PressView("parent", log: log, frame: CGRect(x: 0, y: 0, width: 300, height: 300))
        leaf = PressView("leaf", log: log, frame: CGRect(x: 10, y: 10, width: 100, height: 100))
        window.addSubview(parent)
        parent.addSubview(leaf)
        delegate.log = log
        UIApplication.shared.delegate = delegate
        synthesizer = TouchSynthesizer(window: window)
    }

    var diagnostics: [Diagnostic] { UIApplication.shared.diagnostics.entries }
}

@MainActor
@Suite struct PressDeliveryTests {
    @Test func aPressGoesToTheFirstResponder() throws {
        let scene = PressScene()
        scene.leaf.becomeFirstResponder()
        scene.synthesizer.advance(by: 2)
        scene.synthesizer.pressDown(.select)
        expectEqual(scene.log.entries, ["leaf began select"])
        let press = try #require(scene.leaf.lastPresses.first)
        #expect(press.type == .select && press.phase == .began && press.key == nil)
        #expect(press.force == 1 && press.timestamp == 2)
        #expect(press.window === scene.window && press.responder === scene.leaf)
        #expect(scene.leaf.lastEvent?.type == .presses && scene.leaf.lastEvent?.allTouches == nil)
        scene.synthesizer.advance(by: 0.5)
        scene.synthesizer.pressUp(.select)
        expectEqual(scene.log.entries, ["leaf began select", "leaf ended select"])
        expectEqual(scene.leaf.lastPresses, [press])  // the same object for the press's whole life
        #expect(press.phase == .ended && press.force == 0 && press.timestamp == 2.5)
        #expect(scene.diagnostics.isEmpty)
    }

    @Test func anUnhandledPressTravelsUpTheChain() {
        let scene = PressScene()
        scene.leaf.handles = false
        scene.parent.handles = false
        scene.leaf.becomeFirstResponder()
        scene.synthesizer.pressDown(.menu)
        expectEqual(scene.log.entries, ["leaf began menu", "parent began menu", "window began menu", "delegate began menu"])
    }

    @Test func withoutAFirstResponderTheKeyWindowGetsThePress() {
        let scene = PressScene()
        scene.synthesizer.pressDown(.playPause)
        expectEqual(scene.log.entries, ["window began playPause", "delegate began playPause"])
        #expect(scene.window.firstResponder == nil)
    }

    @Test func aPressEndsWithTheResponderItBeganWith() {
        let scene = PressScene()
        scene.leaf.becomeFirstResponder()
        scene.synthesizer.pressDown(.upArrow)
        scene.parent.becomeFirstResponder()
        scene.synthesizer.pressUp(.upArrow)
        scene.synthesizer.pressDown(.leftArrow)
        expectEqual(scene.log.entries, ["leaf began up", "leaf ended up", "parent began left"])
    }

    @Test func aResponderLeavingItsWindowHasItsPressesCancelled() {
        let scene = PressScene()
        scene.leaf.becomeFirstResponder()
        scene.synthesizer.pressDown(.select)
        scene.window.firstResponder = nil
        scene.synthesizer.pressDown(.menu)  // bound to the window, which stays
        scene.log.clear()

        scene.parent.removeFromSuperview()  // takes the leaf with it
        expectEqual(scene.log.entries, ["leaf cancelled select"])
        expectEqual(scene.leaf.lastPresses.first?.phase, .cancelled)
        expectEqual(scene.leaf.lastEvent?.allPresses.count, 2)  // the menu press, stationary, is in the event
        // The select button's release is expected and dropped quietly; the menu press goes on.
        scene.synthesizer.pressUp(.select)
        scene.synthesizer.pressUp(.menu)
        expectEqual(scene.log.entries, ["leaf cancelled select"])
        #expect(scene.diagnostics.isEmpty)
        // The button works again afterwards.
        scene.window.addSubview(scene.parent)
        scene.leaf.becomeFirstResponder()
        scene.synthesizer.pressDown(.select)
        expectEqual(scene.log.entries, ["leaf cancelled select", "leaf began select"])
    }

    @Test func aPressOfAViewStillInTheWindowIsNotCancelled() {
        let scene = PressScene()
        scene.leaf.becomeFirstResponder()
        scene.synthesizer.pressDown(.select)
        let other = UIView(frame: .zero)
        scene.window.addSubview(other)
        other.removeFromSuperview()
        scene.parent.addSubview(UIView())  // moves within the window change nothing either
        scene.synthesizer.pressUp(.select)
        expectEqual(scene.log.entries, ["leaf began select", "leaf ended select"])
    }

    @Test func pressesGoToTheKeyWindowsFirstResponder() {
        let scene = PressScene()
        let other = UIWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        other.isHidden = false
        let elsewhere = PressView("elsewhere", log: scene.log)
        other.addSubview(elsewhere)
        elsewhere.becomeFirstResponder()
        scene.leaf.becomeFirstResponder()
        scene.synthesizer.pressDown(.select)
        other.makeKey()
        scene.synthesizer.pressDown(.menu)
        scene.synthesizer.pressUp(.select)  // still the leaf's
        expectEqual(scene.log.entries, ["leaf began select", "elsewhere began menu", "leaf ended select"])
    }

    @Test func heldPressesAreInTheEventAsStationary() {
        let scene = PressScene()
        scene.leaf.becomeFirstResponder()
        scene.synthesizer.pressDown(.select)
        let select = scene.leaf.lastPresses.first
        scene.synthesizer.pressDown(.leftArrow)
        expectEqual(scene.log.entries, ["leaf began select", "leaf began left"])
        let event = scene.leaf.lastEvent
        expectEqual(event?.allPresses.count, 2)
        #expect(select?.phase == .stationary && event?.allPresses.contains(select!) == true)
        scene.synthesizer.pressUp(.select)
        scene.synthesizer.pressUp(.leftArrow)
        expectEqual(scene.leaf.lastEvent?.allPresses.count, 1)
    }

    @Test func keyboardKeysCarryTheirKeyAndModifiers() throws {
        let scene = PressScene()
        scene.leaf.becomeFirstResponder()
        func key(_ usage: UIKeyboardHIDUsage, _ flags: UIKeyModifierFlags = []) throws -> (UIPress, UIKey) {
            scene.synthesizer.keyDown(usage, modifierFlags: flags)
            let press = try #require(scene.leaf.lastPresses.first)
            scene.synthesizer.keyUp(usage, modifierFlags: flags)
            return (press, try #require(press.key))
        }
        let (a, keyA) = try key(.keyboardA, .shift)
        #expect(keyA.characters == "A" && keyA.charactersIgnoringModifiers == "a")
        #expect(keyA.keyCode == .keyboardA && keyA.modifierFlags == .shift)
        #expect(a.type == UIPress.PressType(keyboardKey: .keyboardA) && a.type.rawValue == 2004)
        try expectEqual(key(.keyboard1, .shift).1.characters, "!")
        try expectEqual(key(.keyboardB, .alphaShift).1.characters, "B")
        try expectEqual(key(.keyboardB, [.alphaShift, .shift]).1.characters, "b")
        try expectEqual(key(.keyboardSlash, [.command, .shift]).1.characters, "?")
        let (up, upKey) = try key(.keyboardUpArrow)
        #expect(upKey.characters == "UIKeyInputUpArrow" && up.type.rawValue == 2082 && up.type != .upArrow)
        try expectEqual(key(.keyboardReturnOrEnter).1.characters, "\r")
        try expectEqual(key(.keyboardEscape).1.characters, "UIKeyInputEscape")
        try expectEqual(key(.keyboardLeftShift).1.characters, "")
        expectEqual(scene.log.entries.first, "leaf began key A")
        #expect(scene.diagnostics.isEmpty)
    }

    @Test func modifierBitsUIKitDoesNotDefineAreIgnored() throws {
        let scene = PressScene()
        scene.leaf.becomeFirstResponder()
        UIApplication.shared.inputPort.send(.button(ButtonEvent(
            timestamp: 0, usagePage: HIDPressUsage.keyboardPage, usage: 0x04, isDown: true, modifierFlags: .max)))
        UIApplication.shared.runLoop.runUntilIdle()
        let key = try #require(scene.leaf.lastPresses.first?.key)
        expectEqual(key.modifierFlags, [.alphaShift, .shift, .control, .alternate, .command, .numericPad])
    }

    @Test func pressesAndTouchesShareOneQueueInArrivalOrder() {
        let scene = PressScene()
        scene.leaf.becomeFirstResponder()
        let port = UIApplication.shared.inputPort
        port.send(.digitizer(DigitizerFrame(timestamp: 0, contacts: [DigitizerContact(identifier: 1, phase: .began, x: 50, y: 50)])))
        port.send(.button(ButtonEvent(timestamp: 0, usagePage: HIDPressUsage.consumerPage, usage: 0x41, isDown: true)))
        port.send(.motion(MotionEvent(timestamp: 0, kind: .shake, phase: .began)))
        port.send(.digitizer(DigitizerFrame(timestamp: 0, contacts: [DigitizerContact(identifier: 1, phase: .ended, x: 50, y: 50)])))
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(scene.log.entries, ["leaf touch began", "leaf began select", "leaf motion began shake", "leaf touch ended"])
    }
}

@MainActor
@Suite struct MotionDeliveryTests {
    @Test func aShakeGoesToTheFirstResponder() {
        let scene = PressScene()
        scene.leaf.becomeFirstResponder()
        scene.synthesizer.shake()
        expectEqual(scene.log.entries, ["leaf motion began shake", "leaf motion ended shake"])
    }

    @Test func anUnhandledShakeTravelsUpTheChain() {
        let scene = PressScene()
        scene.leaf.handles = false
        scene.leaf.becomeFirstResponder()
        scene.synthesizer.shake()
        #expect(scene.log.entries == ["leaf motion began shake", "parent motion began shake",
                                      "leaf motion ended shake", "parent motion ended shake"])
    }

    @Test func withoutAFirstResponderTheKeyWindowGetsTheShake() {
        let scene = PressScene()
        scene.synthesizer.shake()
        expectEqual(scene.log.entries, ["window motion began", "delegate motion began"])
    }

    @Test func aCancelledShakeIsReportedAsCancelled() {
        let scene = PressScene()
        scene.leaf.becomeFirstResponder()
        let port = UIApplication.shared.inputPort
        port.send(.motion(MotionEvent(timestamp: 0, kind: .shake, phase: .began)))
        port.send(.motion(MotionEvent(timestamp: 0, kind: .shake, phase: .cancelled)))
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(scene.log.entries, ["leaf motion began shake", "leaf motion cancelled"])
    }
}

@MainActor
@Suite struct PressInputErrorTests {
    private func send(_ events: [HIDEvent]) {
        for event in events { UIApplication.shared.inputPort.send(event) }
        UIApplication.shared.runLoop.runUntilIdle()
    }

    private func button(_ page: UInt16, _ usage: UInt16, down: Bool, at time: Double = 0) -> HIDEvent {
        .button(ButtonEvent(timestamp: time, usagePage: page, usage: usage, isDown: down))
    }

    @Test func aMalformedButtonPacketIsReportedAndTheNextPressStillArrives() {
        let scene = PressScene()
        scene.leaf.becomeFirstResponder()
        var bytes = HIDPacketEncoder().encode(button(HIDPressUsage.consumerPage, 0x41, down: true))
        bytes[HIDWireFormat.headerSize + 12] = 2  // the down flag may only be 0 or 1
        UIApplication.shared.inputPort.send(bytes)
        scene.synthesizer.pressDown(.menu)
        expectEqual(scene.diagnostics.map(\.kind), [.malformedHIDPacket])
        expectEqual(scene.log.entries, ["leaf began menu"])
    }

    @Test func unknownUsagesAreReportedAndDroppedAlone() {
        let scene = PressScene()
        scene.leaf.becomeFirstResponder()
        send([
            button(0x09, 0x01, down: true),                          // the generic button page
            button(HIDPressUsage.consumerPage, 0xE9, down: true),    // volume up: no press type
            button(HIDPressUsage.keyboardPage, 0x01, down: true),    // keyboard error roll-over
            button(HIDPressUsage.keyboardPage, 0xA5, down: true),    // reserved
            button(HIDPressUsage.consumerPage, 0x41, down: true),
        ])
        expectEqual(scene.diagnostics.map(\.kind), Array(repeating: .invalidPress, count: 4))
        #expect(scene.diagnostics[0].message.contains("page 0x9, usage 0x1") && scene.diagnostics[0].message.contains("not a known press"))
        expectEqual(scene.log.entries, ["leaf began select"])
        // Its release is no release of an unknown press: nothing more is reported.
        send([button(HIDPressUsage.consumerPage, 0x41, down: false)])
        #expect(scene.diagnostics.count == 4 && scene.log.entries.last == "leaf ended select")
    }

    @Test func buttonsThatContradictWhatIsHeldAreReportedAndDropped() {
        let scene = PressScene()
        scene.leaf.becomeFirstResponder()
        send([
            button(HIDPressUsage.consumerPage, 0x40, down: false),   // up while up
            button(HIDPressUsage.consumerPage, 0x40, down: true),
            button(HIDPressUsage.consumerPage, 0x40, down: true),    // down while down
            button(HIDPressUsage.consumerPage, 0x40, down: false),
            button(HIDPressUsage.consumerPage, 0x40, down: true, at: .nan),
            button(HIDPressUsage.consumerPage, 0xCD, down: true),
        ])
        expectEqual(scene.diagnostics.map(\.kind), [.invalidPress, .invalidPress, .invalidPress])
        #expect(scene.diagnostics.map(\.message).contains { $0.contains("non-finite timestamp") })
        expectEqual(scene.log.entries, ["leaf began menu", "leaf ended menu", "leaf began playPause"])
    }

    @Test func shakesOutOfOrderAreReportedAndDropped() {
        let scene = PressScene()
        scene.leaf.becomeFirstResponder()
        send([
            .motion(MotionEvent(timestamp: 0, kind: .shake, phase: .ended)),
            .motion(MotionEvent(timestamp: 0, kind: .shake, phase: .began)),
            .motion(MotionEvent(timestamp: 0, kind: .shake, phase: .began)),
            .motion(MotionEvent(timestamp: .infinity, kind: .shake, phase: .ended)),
            .motion(MotionEvent(timestamp: 0, kind: .shake, phase: .ended)),
        ])
        expectEqual(scene.diagnostics.map(\.kind), [.invalidMotion, .invalidMotion, .invalidMotion])
        expectEqual(scene.log.entries, ["leaf motion began shake", "leaf motion ended shake"])
    }

    @Test func aPressTypeNoUsageReportsCannotBeSynthesized() throws {
        let scene = PressScene()
        scene.leaf.becomeFirstResponder()
        scene.synthesizer.pressDown(try #require(UIPress.PressType(rawValue: 99)))
        #expect(scene.log.entries.isEmpty && scene.diagnostics.isEmpty)
        #expect(HIDPressUsage.usage(of: .select)! == (0x0C, 0x41))
        #expect(HIDPressUsage.usage(of: UIPress.PressType(keyboardKey: .keyboardZ))! == (0x07, 0x1D))
    }
}
