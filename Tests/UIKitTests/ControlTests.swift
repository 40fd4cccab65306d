import TestExpectations
import Testing
@testable import UIKit

/// The touch events of a control, with the names the logs use.
private let touchEventNames: [(UIControl.Event, String)] = [
    (.touchDown, "touchDown"), (.touchDownRepeat, "touchDownRepeat"),
    (.touchDragInside, "dragInside"), (.touchDragOutside, "dragOutside"),
    (.touchDragEnter, "dragEnter"), (.touchDragExit, "dragExit"),
    (.touchUpInside, "upInside"), (.touchUpOutside, "upOutside"), (.touchCancel, "cancel"),
    (.valueChanged, "valueChanged"), (.primaryActionTriggered, "primary"),
]

/// Logs every control event of `control` by name, with the highlight as it was then.
@MainActor
func recordControlEvents(of control: UIControl, into log: CallLog, highlight: Bool = false) {
    for (event, name) in touchEventNames {
        control.addAction(UIAction { _ in log.add(highlight ? "\(name) \(control.isHighlighted)" : name) }, for: event)
    }
}

/// A control that logs its tracking methods beside its events.
@MainActor
final class TrackingLogControl: UIControl {
    var log: CallLog?
    var beginsTracking = true
    var continuesTracking = true

    override func beginTracking(_ touch: UITouch, with event: UIEvent?) -> Bool {
        log?.add("begin")
        return beginsTracking
    }

    override func continueTracking(_ touch: UITouch, with event: UIEvent?) -> Bool {
        log?.add("continue")
        return continuesTracking
    }

    override func endTracking(_ touch: UITouch?, with event: UIEvent?) {
        log?.add("end")
    }

    override func cancelTracking(with event: UIEvent?) {
        log?.add("cancelTracking")
    }
}

/// A window with a plain parent view (0,0,400,400) holding `control` at (100,100,100,50).
@MainActor
private func controlScene<Control: UIControl>(_ control: Control, highlight: Bool = false) -> (RecordingView, Control, CallLog, TouchSynthesizer) {
    let window = makeWindow()
    let parent = RecordingView(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
    window.addSubview(parent)
    control.frame = CGRect(x: 100, y: 100, width: 100, height: 50)
    parent.addSubview(control)
    let log = CallLog()
    recordControlEvents(of: control, into: log, highlight: highlight)
    return (parent, control, log, TouchSynthesizer(window: window))
}

@MainActor
@Suite struct ControlEventTests {
    @Test func tapSendsTouchDownThenTouchUpInside() {
        let (parent, control, log, synthesizer) = controlScene(UIControl())
        let finger = synthesizer.touchDown(at: CGPoint(x: 150, y: 125))
        expectEqual(log.entries, ["touchDown"])
        #expect(control.isTracking && control.isHighlighted && control.isTouchInside)
        expectEqual(control.state, .highlighted)
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["touchDown", "upInside"])
        #expect(!control.isTracking && !control.isHighlighted && !control.isTouchInside)
        #expect(parent.calls.isEmpty)  // the control keeps its touch
    }

    @Test func secondTapOfADoubleTapAlsoSendsTouchDownRepeat() {
        let (_, _, log, synthesizer) = controlScene(UIControl())
        synthesizer.tap(at: CGPoint(x: 150, y: 125))
        synthesizer.advance(by: 0.2)
        synthesizer.tap(at: CGPoint(x: 155, y: 125))
        expectEqual(log.entries, ["touchDown", "upInside", "touchDown", "touchDownRepeat", "upInside"])
        synthesizer.advance(by: 1)  // too late to repeat
        synthesizer.tap(at: CGPoint(x: 150, y: 125))
        expectEqual(log.entries.suffix(2), ["touchDown", "upInside"])
    }

    @Test func dragOutAndBackInSendsExitAndEnterAndFollowsWithTheHighlight() {
        let (_, _, log, synthesizer) = controlScene(UIControl(), highlight: true)
        let finger = synthesizer.touchDown(at: CGPoint(x: 150, y: 125))
        synthesizer.touchMove(finger, to: CGPoint(x: 160, y: 130))   // inside the bounds
        synthesizer.touchMove(finger, to: CGPoint(x: 160, y: 210))   // outside the bounds, within 70 pt
        synthesizer.touchMove(finger, to: CGPoint(x: 160, y: 230))   // more than 70 pt below
        synthesizer.touchMove(finger, to: CGPoint(x: 160, y: 240))
        synthesizer.touchMove(finger, to: CGPoint(x: 160, y: 200))   // back within 70 pt
        synthesizer.touchUp(finger)
        #expect(log.entries == [
            "touchDown true", "dragInside true", "dragInside true",
            "dragExit false", "dragOutside false", "dragOutside false",
            "dragEnter true", "dragInside true", "upInside false",
        ])
    }

    @Test func dragFarOutAndReleaseSendsTouchUpOutside() {
        let (_, control, log, synthesizer) = controlScene(UIControl())
        let finger = synthesizer.touchDown(at: CGPoint(x: 150, y: 125))
        synthesizer.touchMove(finger, to: CGPoint(x: 350, y: 125))
        #expect(!control.isTouchInside && !control.isHighlighted && control.isTracking)
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["touchDown", "dragExit", "dragOutside", "upOutside"])
    }

    @Test func insideReachesSeventyPointsBeyondTheBoundsOnEverySide() {
        let (_, _, log, synthesizer) = controlScene(UIControl())
        // Bounds x 100..<200 in the window: inside runs from 30 up to, not including, 270.
        for (x, expected) in [(269.5, "upInside"), (270.0, "upOutside"), (30.0, "upInside"), (29.5, "upOutside")] {
            log.clear()
            let finger = synthesizer.touchDown(at: CGPoint(x: 150, y: 125))
            synthesizer.touchMove(finger, to: CGPoint(x: x, y: 125))
            synthesizer.touchUp(finger)
            expectEqual(log.entries.last, expected, "lifted at x = \(x)")
            synthesizer.advance(by: 1)
        }
    }

    @Test func cancelledTouchSendsTouchCancel() {
        let (_, control, log, synthesizer) = controlScene(UIControl())
        let finger = synthesizer.touchDown(at: CGPoint(x: 150, y: 125))
        synthesizer.touchMove(finger, to: CGPoint(x: 155, y: 125))
        synthesizer.cancelAllTouches()
        expectEqual(log.entries, ["touchDown", "dragInside", "cancel"])
        #expect(!control.isTracking && !control.isHighlighted)
    }

    @Test func trackingMethodsRunBeforeTheirEvents() {
        let control = TrackingLogControl()
        let (_, _, log, synthesizer) = controlScene(control)
        control.log = log
        let finger = synthesizer.touchDown(at: CGPoint(x: 150, y: 125))
        synthesizer.touchMove(finger, to: CGPoint(x: 155, y: 125))
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["begin", "touchDown", "continue", "dragInside", "end", "upInside"])
        log.clear()
        synthesizer.advance(by: 1)
        synthesizer.touchDown(at: CGPoint(x: 150, y: 125))
        synthesizer.cancelAllTouches()
        expectEqual(log.entries, ["begin", "touchDown", "cancelTracking", "cancel"])
    }

    @Test func beginTrackingReturningFalseTracksNothing() {
        let control = TrackingLogControl()
        control.beginsTracking = false
        let (parent, _, log, synthesizer) = controlScene(control)
        control.log = log
        let finger = synthesizer.touchDown(at: CGPoint(x: 150, y: 125))
        #expect(!control.isTracking && !control.isHighlighted)
        synthesizer.touchMove(finger, to: CGPoint(x: 155, y: 125))
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["begin"])
        #expect(parent.calls.isEmpty)  // the control still keeps the touch
    }

    @Test func continueTrackingReturningFalseStopsTheEvents() {
        let control = TrackingLogControl()
        control.continuesTracking = false
        let (_, _, log, synthesizer) = controlScene(control)
        control.log = log
        let finger = synthesizer.touchDown(at: CGPoint(x: 150, y: 125))
        synthesizer.touchMove(finger, to: CGPoint(x: 155, y: 125))
        #expect(!control.isTracking && !control.isHighlighted)
        synthesizer.touchMove(finger, to: CGPoint(x: 160, y: 125))
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["begin", "touchDown", "continue"])
    }

    @Test func disabledControlSendsNothingAndItsTouchesGoUpTheChain() {
        let (parent, control, log, synthesizer) = controlScene(UIControl())
        control.isEnabled = false
        expectEqual(control.state, .disabled)
        let finger = synthesizer.touchDown(at: CGPoint(x: 150, y: 125))
        #expect(!control.isHighlighted && !control.isTracking)
        synthesizer.touchUp(finger)
        #expect(log.entries.isEmpty)
        expectEqual(parent.phases, ["began", "ended"])
    }

    @Test func disablingWhileTrackingCancelsTrackingWithoutAnEvent() {
        let control = TrackingLogControl()
        let (_, _, log, synthesizer) = controlScene(control)
        control.log = log
        control.addAction(UIAction { _ in control.isEnabled = false }, for: .touchDragInside)
        let finger = synthesizer.touchDown(at: CGPoint(x: 150, y: 125))
        synthesizer.touchMove(finger, to: CGPoint(x: 155, y: 125))
        #expect(!control.isTracking && !control.isHighlighted)
        synthesizer.touchMove(finger, to: CGPoint(x: 160, y: 125))
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["begin", "touchDown", "continue", "dragInside", "cancelTracking"])
    }

    @Test func controlRemovedFromItsWindowWhileTrackingIsCancelled() {
        let control = TrackingLogControl()
        let (_, _, log, synthesizer) = controlScene(control)
        control.log = log
        let finger = synthesizer.touchDown(at: CGPoint(x: 150, y: 125))
        control.removeFromSuperview()
        expectEqual(log.entries, ["begin", "touchDown", "cancelTracking", "cancel"])
        #expect(!control.isTracking && !control.isHighlighted)
        synthesizer.touchMove(finger, to: CGPoint(x: 160, y: 125))
        synthesizer.touchUp(finger)
        expectEqual(log.entries.count, 4)
        #expect(UIApplication.shared.diagnostics.entries.isEmpty)
    }

    @Test func aSecondFingerOnAMultipleTouchControlGoesUpTheChain() {
        let (parent, control, log, synthesizer) = controlScene(UIControl())
        control.isMultipleTouchEnabled = true
        let fingers = synthesizer.touchDown(at: [CGPoint(x: 120, y: 125), CGPoint(x: 180, y: 125)])
        synthesizer.touchUp(fingers)
        expectEqual(log.entries, ["touchDown", "upInside"])
        expectEqual(parent.phases, ["began", "ended"])
        #expect(parent.calls.allSatisfy { $0.touches.count == 1 })
    }
}

@MainActor
@Suite struct ControlActionTests {
    @MainActor final class Target {
        var log: [String] = []
        func tapped() { log.append("tapped") }
        func buttonTapped(_ button: UIButton) { log.append("tapped by \(button.tag)") }
        func changed(_ control: UIControl) { log.append("changed \(control.tag)") }
    }

    @Test func methodReferencesRunInTheOrderAddedWithTheControlAsArgument() {
        let (_, button, _, synthesizer) = controlScene(UIButton())
        button.tag = 7
        let target = Target()
        button.addTarget(target, action: Target.tapped, for: .touchUpInside)
        button.addTarget(target, action: Target.buttonTapped, for: .touchUpInside)
        button.addTarget(target, action: Target.changed, for: [.touchUpInside, .valueChanged])
        synthesizer.tap(at: CGPoint(x: 150, y: 125))
        expectEqual(target.log, ["tapped", "tapped by 7", "changed 7"])
        expectEqual(button.allTargets, [AnyHashable(ObjectIdentifier(target))])
        #expect(button.allControlEvents.contains([.touchUpInside, .valueChanged]))
    }

    @Test func targetsAreHeldWeakly() {
        let (_, control, log, synthesizer) = controlScene(UIControl())
        var target: Target? = Target()
        weak let weakTarget = target
        control.addTarget(target!, action: Target.changed, for: .touchUpInside)
        target = nil
        #expect(weakTarget == nil)
        synthesizer.tap(at: CGPoint(x: 150, y: 125))
        expectEqual(log.entries, ["touchDown", "upInside"])  // only the UIActions ran
        #expect(control.allTargets.isEmpty)
    }

    @Test func removeTargetTakesEventsAwayFromATargetOrFromAll() {
        let (_, control, log, synthesizer) = controlScene(UIControl())
        let first = Target(), second = Target()
        control.addTarget(first, action: Target.changed, for: [.touchDown, .touchUpInside])
        control.addTarget(second, action: Target.changed, for: .touchUpInside)
        control.removeTarget(first, action: nil, for: .touchDown)
        synthesizer.tap(at: CGPoint(x: 150, y: 125))
        #expect(first.log == ["changed 0"] && second.log == ["changed 0"])
        control.removeTarget(nil, action: nil, for: .allEvents)
        #expect(control.allTargets.isEmpty)
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 150, y: 125))
        #expect(first.log.count == 1 && second.log.count == 1)
        expectEqual(log.entries.count, 4)  // UIActions are not targets: they stay
    }

    @Test func actionsAreKeptOnePerIdentifier() {
        let (_, control, _, synthesizer) = controlScene(UIControl())
        var seen: [String] = []
        let first = UIAction(title: "First", identifier: .init("save")) { action in
            seen.append("\(action.title) from \((action.sender as? UIControl) === control)")
        }
        control.addAction(first, for: .touchDown)
        control.addAction(first, for: .touchUpInside)  // the same action: both events
        synthesizer.tap(at: CGPoint(x: 150, y: 125))
        expectEqual(seen, ["First from true", "First from true"])
        #expect(first.sender == nil)

        control.addAction(UIAction(title: "Second", identifier: .init("save")) { seen.append($0.title) }, for: .touchUpInside)
        seen = []
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 150, y: 125))
        expectEqual(seen, ["Second"])  // replaced, for all its events

        control.removeAction(identifiedBy: .init("save"), for: .touchUpInside)
        seen = []
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 150, y: 125))
        #expect(seen.isEmpty)
    }

    @Test func removeActionTakesOnlyTheGivenEvents() {
        var seen: [String] = []
        let action = UIAction { _ in seen.append("ran") }
        let control = UIControl()
        control.addAction(action, for: [.touchDown, .touchUpInside])
        control.removeAction(action, for: .touchDown)
        expectEqual(control.allControlEvents, .touchUpInside)
        let (_, _, _, synthesizer) = controlScene(control)
        synthesizer.tap(at: CGPoint(x: 150, y: 125))
        expectEqual(seen, ["ran"])
    }

    @Test func sendActionsRunsEveryMatchingActionOnceEvenWhenDisabled() {
        let (_, control, _, _) = controlScene(UIControl())
        var runs = 0
        control.addAction(UIAction { _ in runs += 1 }, for: [.valueChanged, .touchUpInside])
        control.isEnabled = false
        control.sendActions(for: [.valueChanged, .touchUpInside])
        expectEqual(runs, 1)
        control.sendAction(UIAction { _ in runs += 10 })
        expectEqual(runs, 11)
    }

    @Test func sendActionIsTheRouteOfEveryUIActionAndNamedAction() {
        final class WatchedControl: UIControl {
            var sent: [String] = []
            override func sendAction(_ action: UIAction) {
                sent.append("action \(action.title)")
                super.sendAction(action)
            }
            override func sendAction(_ action: Selector, to target: Any?, for event: UIEvent?) {
                sent.append("named \(action) \(event?.type == .touches)")
                super.sendAction(action, to: target, for: event)
            }
        }
        let (_, control, _, synthesizer) = controlScene(WatchedControl())
        control.sent = []
        control.addAction(UIAction(title: "A") { _ in }, for: .touchUpInside)
        control.addTarget(nil, action: .copy, for: .touchUpInside)
        synthesizer.tap(at: CGPoint(x: 150, y: 125))
        expectEqual(control.sent.suffix(2), ["action A", "named copy: true"])
        #expect(control.allTargets.isEmpty && control.allControlEvents.contains(.touchUpInside))
    }

    @Test func primaryActionIsRegisteredForPrimaryActionTriggered() {
        var runs = 0
        let control = UIControl(frame: .zero, primaryAction: UIAction { _ in runs += 1 })
        expectEqual(control.allControlEvents, .primaryActionTriggered)
        control.sendActions(for: .primaryActionTriggered)
        expectEqual(runs, 1)
    }
}

@MainActor
@Suite struct ButtonSwitchSliderTests {
    @Test func buttonTapTriggersItsPrimaryActionAfterTouchUpInside() {
        var ran: [String] = []
        let button = UIButton(primaryAction: UIAction(title: "Save", image: UIImage(size: CGSize(width: 10, height: 10))) { _ in
            ran.append("primary")
        })
        expectEqual(button.buttonType, .system)
        #expect(button.currentTitle == "Save" && button.currentImage != nil)
        let (_, _, log, synthesizer) = controlScene(button)
        synthesizer.tap(at: CGPoint(x: 150, y: 125))
        expectEqual(log.entries, ["touchDown", "upInside", "primary"])
        expectEqual(ran, ["primary"])
        synthesizer.advance(by: 1)
        let finger = synthesizer.touchDown(at: CGPoint(x: 150, y: 125))
        synthesizer.touchMove(finger, to: CGPoint(x: 350, y: 125))
        synthesizer.touchUp(finger)
        expectEqual(ran, ["primary"])  // touch up outside is no tap
    }

    @Test func buttonShowsTheTitleAndImageOfItsState() {
        let normalImage = UIImage(size: CGSize(width: 1, height: 1)), pressedImage = UIImage(size: CGSize(width: 2, height: 2))
        let button = UIButton(type: .system)
        let (_, _, _, synthesizer) = controlScene(button)
        button.setTitle("Play", for: .normal)
        button.setTitle("Playing", for: .selected)
        button.setTitle("Pressed", for: .highlighted)
        button.setImage(normalImage, for: .normal)
        button.setImage(pressedImage, for: .highlighted)
        #expect(button.titleLabel?.text == "Play" && button.imageView?.image === normalImage)
        expectEqual(button.title(for: .disabled), "Play")  // unset: the normal title

        let finger = synthesizer.touchDown(at: CGPoint(x: 150, y: 125))
        #expect(button.titleLabel?.text == "Pressed" && button.imageView?.image === pressedImage)
        #expect(abs((button.titleLabel?.alpha ?? 1) - ControlMetrics.systemButtonHighlightedAlpha) < 0.001)
        synthesizer.touchMove(finger, to: CGPoint(x: 350, y: 125))  // dragged away: no highlight
        #expect(button.currentTitle == "Play" && button.titleLabel?.alpha == 1)
        synthesizer.touchUp(finger)

        button.isSelected = true
        expectEqual(button.titleLabel?.text, "Playing")
        expectEqual(button.title(for: [.selected, .highlighted]), "Play")  // no exact match: normal
        button.layoutIfNeeded()
        if let title = button.titleLabel, let image = button.imageView {
            #expect(image.frame.size == normalImage.size && abs(image.frame.maxX - title.frame.minX) < 0.34, "image, then title")
            #expect(abs((image.frame.minX + title.frame.maxX) / 2 - button.bounds.midX) < 0.34, "centred together")
        }
    }

    @Test func customButtonKeepsItsLookWhileHighlighted() {
        let button = UIButton(frame: .zero)
        expectEqual(button.buttonType, .custom)
        let (_, _, _, synthesizer) = controlScene(button)
        synthesizer.touchDown(at: CGPoint(x: 150, y: 125))
        #expect(button.isHighlighted && button.titleLabel?.alpha == 1)
        // The title and image views do not take touches from the button.
        #expect(button.hitTest(CGPoint(x: 50, y: 25), with: nil) === button)
    }

    @Test func switchToggledByTapsSendsValueChangedThenPrimaryAction() {
        let toggle = UISwitch(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        expectEqual(toggle.frame.size, ControlMetrics.switchSize)
        let (_, _, log, synthesizer) = controlScene(toggle)
        toggle.frame = CGRect(x: 100, y: 100, width: 10, height: 10)
        expectEqual(toggle.bounds.size, ControlMetrics.switchSize)
        synthesizer.tap(at: CGPoint(x: 110, y: 110))
        #expect(toggle.isOn)
        expectEqual(log.entries, ["touchDown", "valueChanged", "primary", "upInside"])
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 110, y: 110))
        #expect(!toggle.isOn)
        log.clear()
        toggle.setOn(true, animated: true)
        #expect(toggle.isOn && log.entries.isEmpty)  // code changes send nothing
    }

    @Test func switchDraggedAcrossTakesTheSideTheFingerLiftsOn() {
        let toggle = UISwitch()
        let (_, _, log, synthesizer) = controlScene(toggle)
        toggle.frame.origin = CGPoint(x: 100, y: 100)
        var finger = synthesizer.touchDown(at: CGPoint(x: 105, y: 115))
        synthesizer.touchMove(finger, to: CGPoint(x: 140, y: 115))
        synthesizer.touchUp(finger)
        #expect(toggle.isOn)
        synthesizer.advance(by: 1)
        // Dragged to the right half while on: no change, no event.
        log.clear()
        finger = synthesizer.touchDown(at: CGPoint(x: 110, y: 115))
        synthesizer.touchMove(finger, to: CGPoint(x: 145, y: 115))
        synthesizer.touchUp(finger)
        #expect(toggle.isOn && !log.entries.contains("valueChanged"))
        // A drag ends where it lifts, even far outside.
        synthesizer.advance(by: 1)
        finger = synthesizer.touchDown(at: CGPoint(x: 140, y: 115))
        synthesizer.touchMove(finger, to: CGPoint(x: 0, y: 300))
        synthesizer.touchUp(finger)
        #expect(!toggle.isOn)
    }

    @Test func continuousSliderReportsEveryChange() {
        let slider = UISlider()
        let (_, _, log, synthesizer) = controlScene(slider)
        slider.frame = CGRect(x: 100, y: 100, width: 228, height: 30)  // the thumb travels 200 pt
        var values: [Float] = []
        slider.addAction(UIAction { _ in values.append(slider.value) }, for: .valueChanged)
        let finger = synthesizer.touchDown(at: CGPoint(x: 116, y: 115))  // on the thumb, 2 pt right of its centre
        synthesizer.touchMove(finger, to: CGPoint(x: 166, y: 115))
        synthesizer.touchMove(finger, to: CGPoint(x: 166, y: 400))    // vertical movement: no change
        synthesizer.touchMove(finger, to: CGPoint(x: 516, y: 400))    // beyond the end: clamped
        synthesizer.touchUp(finger)
        expectEqual(values, [0.25, 1])
        #expect(log.entries == ["touchDown", "valueChanged", "primary", "dragInside", "dragExit", "dragOutside",
                                "valueChanged", "primary", "dragOutside", "upOutside"])
    }

    @Test func nonContinuousSliderReportsOnceWhenTheFingerLifts() {
        let slider = UISlider()
        slider.isContinuous = false
        let (_, _, log, synthesizer) = controlScene(slider)
        slider.frame = CGRect(x: 100, y: 100, width: 228, height: 30)
        let finger = synthesizer.touchDown(at: CGPoint(x: 114, y: 115))
        synthesizer.touchMove(finger, to: CGPoint(x: 164, y: 115))
        synthesizer.touchMove(finger, to: CGPoint(x: 214, y: 115))
        #expect(slider.value == 0.5 && !log.entries.contains("valueChanged"))
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["touchDown", "dragInside", "dragInside", "valueChanged", "primary", "upInside"])
    }

    @Test func sliderTouchedOffItsThumbIsNotTracked() {
        let slider = UISlider()
        let (_, _, log, synthesizer) = controlScene(slider)
        slider.frame = CGRect(x: 100, y: 100, width: 228, height: 30)
        slider.value = 0.5
        let finger = synthesizer.touchDown(at: CGPoint(x: 300, y: 115))
        synthesizer.touchMove(finger, to: CGPoint(x: 320, y: 115))
        synthesizer.touchUp(finger)
        #expect(log.entries.isEmpty && slider.value == 0.5)
    }

    @Test func sliderKeepsItsValueInRange() {
        let slider = UISlider()
        slider.value = 3
        expectEqual(slider.value, 1)
        slider.minimumValue = 2
        #expect(slider.maximumValue == 2 && slider.value == 2)
        slider.maximumValue = 10
        slider.setValue(-4, animated: false)
        expectEqual(slider.value, 2)
    }
}

@MainActor
@Suite struct ControlGestureTests {
    /// A parent with a recognizer and a control inside it at (100,100,100,50).
    private func scene<Control: UIControl>(_ control: Control, recognizer: UIGestureRecognizer) -> (Control, CallLog, TouchSynthesizer) {
        let (parent, control, log, synthesizer) = controlScene(control)
        recognizer.name = "parent"
        recordActions(recognizer, into: log, as: "parent")
        parent.addGestureRecognizer(recognizer)
        return (control, log, synthesizer)
    }

    @Test func aDoubleTapRecognizerOnTheParentIsNotTheButtonsGesture() {
        let doubleTap = UITapGestureRecognizer()
        doubleTap.numberOfTapsRequired = 2
        let (_, log, synthesizer) = scene(UIButton(), recognizer: doubleTap)
        // A single tap: the button's touch up waits (delaysTouchesEnded) until the double tap fails.
        synthesizer.tap(at: CGPoint(x: 150, y: 125))
        expectEqual(log.entries, ["touchDown"])
        synthesizer.advance(by: 0.5)
        expectEqual(log.entries, ["touchDown", "upInside", "primary"])
        // A double tap is the recognizer's: it cancels the button's touch, which never tapped.
        log.clear()
        synthesizer.tap(at: CGPoint(x: 150, y: 125))
        synthesizer.advance(by: 0.1)
        synthesizer.tap(at: CGPoint(x: 150, y: 125))
        expectEqual(log.entries, ["touchDown", "cancel", "parent ended"])
    }

    @Test func aDisabledButtonLeavesTheTapToTheParent() {
        let (button, log, synthesizer) = scene(UIButton(), recognizer: UITapGestureRecognizer())
        button.isEnabled = false
        synthesizer.tap(at: CGPoint(x: 150, y: 125))
        expectEqual(log.entries, ["parent ended"])
    }

    @Test func aSwitchWinsAPanAlongItButNotAcross() {
        let (toggle, log, synthesizer) = scene(UISwitch(), recognizer: UIPanGestureRecognizer())
        toggle.frame.origin = CGPoint(x: 100, y: 100)
        var finger = synthesizer.touchDown(at: CGPoint(x: 105, y: 115))
        synthesizer.touchMove(finger, to: CGPoint(x: 125, y: 118))
        synthesizer.touchMove(finger, to: CGPoint(x: 140, y: 118))
        synthesizer.touchUp(finger)
        #expect(toggle.isOn)
        #expect(!log.entries.contains { $0.hasPrefix("parent") })

        synthesizer.advance(by: 1)
        log.clear()
        finger = synthesizer.touchDown(at: CGPoint(x: 105, y: 115))
        synthesizer.touchMove(finger, to: CGPoint(x: 107, y: 160))
        synthesizer.touchUp(finger)
        #expect(toggle.isOn)
        expectEqual(log.entries, ["touchDown", "cancel", "parent began", "parent ended"])
    }

    @Test func aSliderWinsAHorizontalSwipeThatGrabsItsThumb() {
        let swipe = UISwipeGestureRecognizer()
        swipe.direction = [.left, .right]
        let (slider, log, synthesizer) = scene(UISlider(), recognizer: swipe)
        slider.frame = CGRect(x: 100, y: 100, width: 228, height: 30)
        var finger = synthesizer.touchDown(at: CGPoint(x: 114, y: 115))
        synthesizer.touchMove(finger, to: CGPoint(x: 214, y: 115))
        synthesizer.touchUp(finger)
        expectEqual(slider.value, 0.5)
        #expect(!log.entries.contains { $0.hasPrefix("parent") })

        // Off the thumb the slider does not track, and the swipe is the parent's.
        synthesizer.advance(by: 1)
        log.clear()
        finger = synthesizer.touchDown(at: CGPoint(x: 310, y: 115))
        synthesizer.touchMove(finger, to: CGPoint(x: 230, y: 115))
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["parent ended"])
    }
}
