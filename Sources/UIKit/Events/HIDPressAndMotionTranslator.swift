import HID

/// Which HID button events are which presses. A button event names its
/// button by USB HID usage page and usage (the numbers of the USB HID Usage
/// Tables, which IOKit also uses):
///
/// | usage page           | usage | press                                   |
/// |----------------------|-------|-----------------------------------------|
/// | 0x0C consumer        | 0x40  | `.menu` (Menu)                          |
/// | 0x0C consumer        | 0x41  | `.select` (Menu Pick)                   |
/// | 0x0C consumer        | 0x42  | `.upArrow` (Menu Up)                    |
/// | 0x0C consumer        | 0x43  | `.downArrow` (Menu Down)                |
/// | 0x0C consumer        | 0x44  | `.leftArrow` (Menu Left)                |
/// | 0x0C consumer        | 0x45  | `.rightArrow` (Menu Right)              |
/// | 0x0C consumer        | 0xCD  | `.playPause` (Play/Pause)               |
/// | 0x07 keyboard/keypad | 0x04–0xA4, 0xB0–0xDD, 0xE0–0xE7 | a keyboard key: `UIPress.key` set, type `PressType(keyboardKey:)` |
///
/// The consumer usages are the ones a TV remote's buttons report. Anything
/// else (another page, a reserved keyboard usage) is not a press: it is
/// reported and dropped.
public enum HIDPressUsage {
    public static let keyboardPage: UInt16 = 0x07
    public static let consumerPage: UInt16 = 0x0C

    /// The remote's buttons on the consumer page, by press type.
    static let consumerButtons: [(usage: UInt16, type: UIPress.PressType)] = [
        (0x40, .menu), (0x41, .select), (0x42, .upArrow), (0x43, .downArrow),
        (0x44, .leftArrow), (0x45, .rightArrow), (0xCD, .playPause),
    ]

    /// The keyboard page's usages that are keys; the others are error codes
    /// (0x00–0x03) or reserved.
    static func isKeyboardKey(_ usage: UInt16) -> Bool {
        (0x04...0xA4).contains(usage) || (0xB0...0xDD).contains(usage) || (0xE0...0xE7).contains(usage)
    }

    /// The usage page and usage that report `type`: a consumer button, or a
    /// keyboard key for a keyboard press type; nil for any other type.
    public static func usage(of type: UIPress.PressType) -> (page: UInt16, usage: UInt16)? {
        if let button = consumerButtons.first(where: { $0.type == type }) { return (consumerPage, button.usage) }
        let key = type.rawValue - UIPress.PressType.keyboardBase
        guard let usage = UInt16(exactly: key), isKeyboardKey(usage) else { return nil }
        return (keyboardPage, usage)
    }
}

/// Turns HID button and motion events into press and motion events: the
/// work of the application's event source (source0), beside the digitizer
/// translation of `HIDEventTranslator`.
///
/// It keeps one `UIPress` per button for as long as the button is down.
/// The application can cancel presses (their responder left its window,
/// or the application left the front): their buttons' release is then
/// expected and dropped.
///
/// Every event is checked before it is trusted: a non-finite timestamp, a
/// usage that is not a press (see ``HIDPressUsage``), a button that goes
/// down while down or up while up, a shake that ends without beginning or
/// begins twice: each is reported and dropped, and the events after it go
/// on as usual.
@MainActor
final class HIDPressAndMotionTranslator {
    private struct Button: Equatable {
        let page: UInt16
        let usage: UInt16
    }

    /// The buttons down, in the order they went down.
    private var held: [(button: Button, press: UIPress)] = []
    /// Buttons still down whose presses the application cancelled: their
    /// release is expected, and dropped without a word.
    private var cancelled: [Button] = []
    private var isShaking = false

    func translate(_ event: ButtonEvent, diagnostics: DiagnosticLog) -> UIPressesEvent? {
        let button = Button(page: event.usagePage, usage: event.usage)
        let name = "button (page 0x\(String(event.usagePage, radix: 16)), usage 0x\(String(event.usage, radix: 16)))"
        guard event.timestamp.isFinite else {
            diagnostics.report(Diagnostic(.invalidPress, "\(name) with a non-finite timestamp was dropped"))
            return nil
        }
        let index = held.firstIndex { $0.button == button }
        if let cancelledIndex = cancelled.firstPosition({ $0 == button }) {
            // Its release (or, if the release was lost, its next press) ends the cancellation.
            cancelled.remove(at: cancelledIndex)
            if !event.isDown { return nil }
        }
        if event.isDown {
            guard index == nil else {
                diagnostics.report(Diagnostic(.invalidPress, "\(name) went down while already down; dropped"))
                return nil
            }
            guard let press = makePress(button, modifierFlags: event.modifierFlags) else {
                diagnostics.report(Diagnostic(.invalidPress, "\(name) is not a known press; dropped"))
                return nil
            }
            held.append((button, press))
            return pressesEvent(changing: press, to: .began, at: event.timestamp)
        }
        guard let index else {
            diagnostics.report(Diagnostic(.invalidPress, "\(name) came up without going down; dropped"))
            return nil
        }
        let press = held[index].press
        let result = pressesEvent(changing: press, to: .ended, at: event.timestamp)
        held.remove(at: index)
        return result
    }

    func translate(_ event: MotionEvent, diagnostics: DiagnosticLog) -> UIMotionEvent? {
        guard event.timestamp.isFinite else {
            diagnostics.report(Diagnostic(.invalidMotion, "shake with a non-finite timestamp was dropped"))
            return nil
        }
        let phase: UIMotionEvent.Phase
        switch event.phase {
        case .began:
            guard !isShaking else {
                diagnostics.report(Diagnostic(.invalidMotion, "shake began while one was under way; dropped"))
                return nil
            }
            isShaking = true
            phase = .began
        case .ended, .cancelled:
            guard isShaking else {
                diagnostics.report(Diagnostic(.invalidMotion, "shake \(event.phase) without beginning; dropped"))
                return nil
            }
            isShaking = false
            phase = event.phase == .ended ? .ended : .cancelled
        }
        return UIMotionEvent(subtype: .motionShake, phase: phase, timestamp: event.timestamp)
    }

    /// Cancels the held presses `shouldCancel` picks: an event in which they
    /// are cancelled and every other held press is stationary, or nil if
    /// none is picked. Their buttons' release is then dropped quietly.
    func cancelPresses(at timestamp: TimeInterval, where shouldCancel: (UIPress) -> Bool) -> UIPressesEvent? {
        guard held.anySatisfy({ shouldCancel($0.press) }) else { return nil }
        let samples = held.mapped { (press: $0.press, phase: shouldCancel($0.press) ? UIPress.Phase.cancelled : .stationary) }
        for (button, press) in held where shouldCancel(press) { cancelled.append(button) }
        held.removeEvery { shouldCancel($0.press) }
        return UIPressesEvent(pressSamples: samples, timestamp: timestamp)
    }

    private func makePress(_ button: Button, modifierFlags: UInt32) -> UIPress? {
        switch button.page {
        case HIDPressUsage.consumerPage:
            guard let type = HIDPressUsage.consumerButtons.first(where: { $0.usage == button.usage })?.type else { return nil }
            return UIPress(type: type, key: nil)
        case HIDPressUsage.keyboardPage:
            guard HIDPressUsage.isKeyboardKey(button.usage), let keyCode = UIKeyboardHIDUsage(rawValue: Int(button.usage)) else {
                return nil
            }
            let flags = UIKeyModifierFlags(rawValue: Int(modifierFlags)).intersection(.all)
            return UIPress(type: UIPress.PressType(keyboardKey: keyCode), key: UIKey(keyCode: keyCode, modifierFlags: flags))
        default:
            return nil
        }
    }

    /// An event in which `press` changes to `phase` and every other held
    /// press is stationary.
    private func pressesEvent(changing press: UIPress, to phase: UIPress.Phase, at timestamp: TimeInterval) -> UIPressesEvent {
        let samples = held.map { (press: $0.press, phase: $0.press === press ? phase : UIPress.Phase.stationary) }
        return UIPressesEvent(pressSamples: samples, timestamp: timestamp)
    }
}
