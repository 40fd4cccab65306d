/// Which gesture recognizer wins the touches they share.
///
/// The rule in one sentence: among the recognizers sharing a touch, the
/// first to leave `.possible` wins and the others fail, unless they may
/// recognize simultaneously, and a recognizer that requires another to fail
/// waits for that one's outcome before it may win.
///
/// What holds whatever the recognizers and delegates do (`GestureArenaTests`
/// checks each, the last with `GestureActionTimingTests`):
/// - Every recognizer given a touch is reset exactly once after its gesture
///   is over (ended, failed or cancelled, and no touch of it on the screen),
///   and then takes part again as if new.
/// - Of recognizers that share touches and may not recognize
///   simultaneously, at most one recognizes; once one has, the others are
///   failed (or cancelled, had they begun) and get no more touches.
/// - A recognizer waiting for others to fail is decided when they are: it
///   fails if one of them recognizes, and recognizes once all have failed.
/// - A recognizer that has failed, ended or been cancelled receives no
///   touch until it is reset; neither does one taken off its view or
///   disabled.
/// - The actions of a recognizer are sent once per change of its state
///   after `.possible`, in order, after every recognizer has seen the event.
///
/// The steps, in UIKit's words and order:
/// 1. Every touch is offered, when it begins, to the enabled recognizers of
///    its hit-test view and of all that view's ancestors (nearest first)
///    whose `allowedTouchTypes` list its type (`allowedPressTypes` for a
///    press), unless a delegate's `gestureRecognizer(_:shouldReceive:)` says no. A
///    recognizer that has already failed or finished takes no new touches
///    until it is reset; neither does one waiting for others to fail.
/// 2. Recognizers receive each event's touches before the view does.
/// 3. A recognizer that tries to leave `.possible` (to `.began`, or straight
///    to `.recognized`) is asked first: its delegate's
///    `gestureRecognizerShouldBegin(_:)`, its view's, and the hit-test views
///    below it (a control claims its own tap) may fail it.
/// 4. If it requires other recognizers to fail (`require(toFail:)`, the
///    delegate's `shouldRequireFailureOf` / `shouldBeRequiredToFailBy`, or
///    the subclass forms), it waits, still `.possible`, until they have all
///    failed; if one of them recognizes, it fails.
/// 5. Once it begins or recognizes, every other recognizer sharing touches
///    with it is prevented — moved to `.failed`, or `.cancelled` if it had
///    begun — unless either delegate's
///    `gestureRecognizer(_:shouldRecognizeSimultaneouslyWith:)` returns true
///    (or `canPrevent` / `canBePrevented(by:)` say no). Recognizers waiting
///    for it to fail fail too.
/// 6. If it delays touches began, the view never sees the touches it held
///    back. If it cancels touches in its view, the view receives
///    `touchesCancelled` for the touches it had begun, and nothing more of
///    them. Its actions run once every recognizer has seen the event (or
///    once the timer or call that moved it is over), so that an action reads
///    what the recognizer set after its state, as on iOS; the same holds
///    for every later change of a recognizer that has begun.
/// 7. When a recognizer fails, the ones waiting for it are looked at again,
///    and touches the view was kept from (delaysTouchesBegan /
///    delaysTouchesEnded) are delivered if nothing else holds them.
/// 8. A recognizer that has ended, failed or been cancelled is reset once
///    it has no touches left on the screen.
///
/// The arena gets what it needs once, when it is made: the application's
/// hooks (``EventPathHost``, ``EventDeliveryState``) and the views' side of
/// delivery (``ViewTouchDelivery``, the touch router), so that it can be
/// built and tested alone. A recognizer that takes part refers to its arena.
@MainActor
final class GestureArena {
    /// Recognizers that have received touches since their last reset.
    @exclusivity(unchecked) private var participants: [UIGestureRecognizer] = []
    private let host: any EventPathHost
    private let delivery: EventDeliveryState
    private let views: any ViewTouchDelivery

    init(host: any EventPathHost, delivery: EventDeliveryState, views: any ViewTouchDelivery) {
        self.host = host
        self.delivery = delivery
        self.views = views
    }

    isolated deinit {
        for recognizer in participants { recognizer.arena = nil }
    }

    /// Makes `recognizer` a participant, if it is not one yet.
    private func admit(_ recognizer: UIGestureRecognizer) {
        guard !participants.containsIdentical(recognizer) else { return }
        participants.append(recognizer)
        recognizer.arena = self
    }

    // MARK: Steps 1–2: giving touches to recognizers

    /// Offers each new touch to the recognizers of its view and ancestors,
    /// then delivers every recognizer its touches of this event, by phase.
    func deliver(_ event: UIEvent, touches: [UITouch]) {
        deliveringToRecognizers = true
        defer {
            deliveringToRecognizers = false
            sendDueActions()
        }
        for touch in touches where touch.phase == .began {
            offer(touch)
        }
        // One touch (the usual case): its own list is the order.
        let order: [UIGestureRecognizer]
        if touches.count == 1 {
            order = touches[0].gestureRecognizerList
        } else {
            var merged: [UIGestureRecognizer] = []
            for touch in touches {
                for recognizer in touch.gestureRecognizerList where !merged.containsIdentical(recognizer) {
                    merged.append(recognizer)
                }
            }
            order = merged
        }
        // The phases this event brings, as bits: most events bring one.
        var phases = 0
        for touch in touches { phases |= 1 << touch.phase.rawValue }
        // A recognizer that has finished takes nothing until it is reset
        // (step 1). Most recognizers on a long gesture's path finish early,
        // so they are passed over here, without a call.
        order.forEachUnretained { recognizer in
            if recognizer.receivesTouches { deliver(event, touches: touches, in: phases, to: recognizer) }
        }
        if !needsSettling && touches.anySatisfy({ $0.isFinished && !$0.gestureRecognizerList.isEmpty }) {
            needsSettling = true
        }
    }

    private func deliver(
        _ event: UIEvent, touches: [UITouch], in phases: Int, to recognizer: UIGestureRecognizer
    ) {
        var sawCancellation = false
        for phase in UITouch.Phase.deliveryOrder where phases & (1 << phase.rawValue) != 0 {
            // A phase delivered before this one may have finished it.
            guard recognizer.receivesTouches else { break }
            guard let mine = Self.touches(of: touches, in: phase, receivedBy: recognizer) else { continue }
            switch phase {
            case .began: recognizer.touchesBegan(mine, with: event)
            case .moved: recognizer.touchesMoved(mine, with: event)
            case .ended: recognizer.touchesEnded(mine, with: event)
            case .cancelled:
                sawCancellation = true
                recognizer.touchesCancelled(mine, with: event)
            case .stationary: break
            }
            recognizer.lastScreenCentroid = recognizer.screenCentroid(of: recognizer.currentTouchesNotIgnored)
        }
        // The system took the touches away: whatever the subclass did, the recognizer is done.
        if sawCancellation && recognizer.touchesStillDown.isEmpty {
            if recognizer.state == .possible { fail(recognizer, .touchesCancelled) }
            if recognizer.state == .began || recognizer.state == .changed { transition(recognizer, to: .cancelled, .touchesCancelled) }
        }
    }

    /// The touches in `phase` that `recognizer` receives, or nil if there
    /// are none. A lone touch comes in its own set, shared by everyone who
    /// receives that touch alone.
    private static func touches(
        of touches: [UITouch], in phase: UITouch.Phase, receivedBy recognizer: UIGestureRecognizer
    ) -> Set<UITouch>? {
        var lone: UITouch?
        var several: Set<UITouch>?
        for touch in touches where touch.phase == phase && recognizer.receives(touch) {
            if several != nil {
                several!.insert(touch)
            } else if let first = lone {
                several = [first, touch]
            } else {
                lone = touch
            }
        }
        if let several { return several }
        return lone?.setOfSelf
    }

    /// Presses, like touches, reach the recognizers of the responder's view
    /// and its ancestors first (PressRouting step 3). A recognizer that
    /// takes part only through presses follows the same state machine; the
    /// arena's arbitration applies to the touches recognizers share.
    func deliverPresses(_ event: UIPressesEvent, in window: UIWindow) {
        deliveringToRecognizers = true
        defer {
            deliveringToRecognizers = false
            sendDueActions()
        }
        var order: [UIGestureRecognizer] = []
        for (press, phase) in event.pressSamples where press.window === window {
            if phase == .began {
                press.gestureRecognizerList = []
                var view = press.responder as? UIView
                while let current = view {
                    for recognizer in current.attachedRecognizers where recognizer.takesNewTouches && recognizer.allowsPressType(press.type) {
                        if let delegate = recognizer.delegate, !delegate.gestureRecognizer(recognizer, shouldReceive: press) { continue }
                        press.gestureRecognizerList.append(recognizer)
                        admit(recognizer)
                    }
                    view = current.superview
                }
            }
            for recognizer in press.gestureRecognizerList where !order.containsIdentical(recognizer) { order.append(recognizer) }
        }
        for recognizer in order {
            for phase in UIPress.Phase.deliveryOrder {
                guard recognizer.receivesTouches else { break }
                var mine = Set<UIPress>()
                for (press, pressPhase) in event.pressSamples where pressPhase == phase && press.gestureRecognizerList.containsIdentical(recognizer) {
                    mine.insert(press)
                }
                guard !mine.isEmpty else { continue }
                switch phase {
                case .began: recognizer.pressesBegan(mine, with: event)
                case .changed: recognizer.pressesChanged(mine, with: event)
                case .ended: recognizer.pressesEnded(mine, with: event)
                case .cancelled: recognizer.pressesCancelled(mine, with: event)
                case .stationary: break
                }
            }
        }
    }

    @exclusivity(unchecked) private var spareCandidates: [UIGestureRecognizer] = []

    private func offer(_ touch: UITouch) {
        // The recognizers are gathered before any delegate is asked, so that
        // a delegate changing the tree does not change the walk up it. The
        // list's storage is kept from one touch to the next.
        var candidates: [UIGestureRecognizer] = []
        swap(&candidates, &spareCandidates)
        defer {
            candidates.removeAllKeepingStorage()
            swap(&candidates, &spareCandidates)
        }
        var view = touch.view
        while let current = view {
            if !current.attachedRecognizers.isEmpty {
                for recognizer in current.attachedRecognizers where recognizer.takesNewTouches && recognizer.allowsTouchType(touch.type) {
                    candidates.append(recognizer)
                }
            }
            view = current.superview
        }
        guard !candidates.isEmpty else { return }
        touch.gestureRecognizerList.reserveCapacity(candidates.count)
        for recognizer in candidates {
            if let delegate = recognizer.delegate, !delegate.gestureRecognizer(recognizer, shouldReceive: touch) { continue }
            touch.gestureRecognizerList.append(recognizer)
            recognizer.currentTouches.append(touch)
            recognizer.touchesSinceReset.append(touch)
            admit(recognizer)
        }
    }

    /// Step 8, and what the event left behind: called after each event and
    /// after each timer that moved a recognizer. There is something to do
    /// only after a touch or a recognizer has finished, which most events
    /// (a finger moving on) do not bring.
    func settle() {
        guard operationDepth == 0 else { return }
        while needsSettling {
            needsSettling = false
            let recognizers = participants  // resetting one removes it from the list
            recognizers.forEachUnretained { recognizer in
                let current = recognizer.currentTouches
                if current.containsUnretained(where: { $0.isFinished }) {
                    recognizer.currentTouches.removeEvery { $0.isFinished }
                }
                if recognizer.isFinished && recognizer.currentTouches.isEmpty { reset(recognizer) }
            }
        }
    }

    /// Set when a touch that recognizers follow, or a recognizer, finishes.
    @exclusivity(unchecked) private var needsSettling = false

    // MARK: Steps 3–7: state transitions

    /// How deep the arena is in its own work; recognizers that finished are
    /// reset when the outermost step is over (step 8).
    @exclusivity(unchecked) private var operationDepth = 0

    /// Runs one arena step; when it is the outermost one, sends the actions
    /// it made due unless recognizers are still being given an event, and
    /// settles right after when no event is being delivered (a timer moved
    /// a recognizer).
    private func step(_ body: () -> Void) {
        operationDepth += 1
        body()
        operationDepth -= 1
        guard operationDepth == 0 else { return }
        if !deliveringToRecognizers { sendDueActions() }
        if !delivery.isDeliveringEvent { settle() }
    }

    // MARK: Step 6: actions, once the recognizers are done

    /// Set while recognizers are given an event's touches or presses.
    @exclusivity(unchecked) private var deliveringToRecognizers = false
    /// Recognizers whose actions are due, once per change of state, in order.
    @exclusivity(unchecked) private var dueActions: [UIGestureRecognizer] = []
    @exclusivity(unchecked) private var spareDueActions: [UIGestureRecognizer] = []
    @exclusivity(unchecked) private var sendingActions = false

    /// Sends the due actions, with each recognizer's state as it is now. An
    /// action that moves a recognizer adds to the list this loop is sending.
    private func sendDueActions() {
        guard !sendingActions, !dueActions.isEmpty else { return }
        sendingActions = true
        defer { sendingActions = false }
        while !dueActions.isEmpty {
            var due = spareDueActions
            spareDueActions = []
            swap(&due, &dueActions)
            due.forEachUnretained { $0.sendActions() }
            due.removeAllKeepingStorage()
            spareDueActions = due
        }
    }

    /// Sends the due actions of a recognizer that is about to be reset, and
    /// so cannot wait for the others.
    private func sendDueActionsNow(of recognizer: UIGestureRecognizer) {
        var count = 0
        dueActions.removeEvery { due in
            guard due === recognizer else { return false }
            count += 1
            return true
        }
        for _ in 0..<count { recognizer.sendActions() }
    }

    /// A recognizer (or its subclass code) asks to move to `newState`.
    func requestTransition(_ recognizer: UIGestureRecognizer, to newState: UIGestureRecognizer.State) {
        step { applyTransition(recognizer, to: newState) }
    }

    private func applyTransition(_ recognizer: UIGestureRecognizer, to newState: UIGestureRecognizer.State) {
        let current = recognizer.storedState
        switch (current, newState) {
        case (.possible, .began), (.possible, .ended):
            if recognizer.pendingState != nil {
                recognizer.pendingState = newState == .ended ? .ended : recognizer.pendingState
            } else {
                attemptToLeavePossible(recognizer, to: newState)
            }
        case (.possible, .changed) where recognizer.pendingState != nil:
            break  // still waiting: the change will show once it begins
        case (.possible, .failed):
            fail(recognizer, .requested)
        case (.possible, .cancelled) where recognizer.pendingState != nil:
            fail(recognizer, .requested)
        case (.began, .changed), (.changed, .changed), (.began, .ended), (.changed, .ended),
             (.began, .cancelled), (.changed, .cancelled):
            transition(recognizer, to: newState, .requested)
        default:
            host.report(Diagnostic(
                .illegalGestureTransition, "\(recognizer) cannot go from \(current) to \(newState); the state was kept"))
        }
    }

    /// Steps 3 and 4.
    private func attemptToLeavePossible(_ recognizer: UIGestureRecognizer, to target: UIGestureRecognizer.State) {
        guard shouldBegin(recognizer) else {
            fail(recognizer, .shouldBeginDenied)
            return
        }
        let blockers = failureRequirements(of: recognizer)
        if let recognized = Self.firstRecognized(of: blockers) {
            fail(recognizer, .requiredFailureRecognized, by: recognized)
            return
        }
        if blockers.anySatisfy({ $0.state == .possible }) {
            recognizer.pendingState = target
            return
        }
        begin(recognizer, as: target, .requested)
    }

    private func shouldBegin(_ recognizer: UIGestureRecognizer) -> Bool {
        if let delegate = recognizer.delegate, !delegate.gestureRecognizerShouldBegin(recognizer) { return false }
        guard let view = recognizer.view else { return true }
        if !view.gestureRecognizerShouldBegin(recognizer) { return false }
        for touch in recognizer.currentTouchesNotIgnored {
            if let hitView = touch.view, hitView !== view, hitView.isDescendant(of: view),
               hitView.claimsGesture(of: recognizer) {
                return false
            }
        }
        return true
    }

    /// Steps 5 and 6.
    private func begin(
        _ recognizer: UIGestureRecognizer, as target: UIGestureRecognizer.State,
        _ reason: TraceRecord.GestureChangeReason, by cause: UIGestureRecognizer? = nil
    ) {
        recognizer.pendingState = nil
        recognizer.storedState = target
        if recognizer.isFinished { needsSettling = true }
        trace(recognizer, from: .possible, to: target, reason, cause)
        for other in participants where other !== recognizer && !other.isFinished && sharesTouches(recognizer, other) {
            if requires(other, toFail: recognizer) {
                fail(other, .requiredFailureRecognized, by: recognizer)
            } else if !recognizeSimultaneously(recognizer, other),
                      recognizer.canPrevent(other), other.canBePrevented(by: recognizer) {
                if other.state == .possible {
                    fail(other, .preventedBy, by: recognizer)
                } else {
                    transition(other, to: .cancelled, .preventedBy, by: recognizer)
                }
            }
        }
        for other in participants where other.pendingState != nil && requires(other, toFail: recognizer) {
            fail(other, .requiredFailureRecognized, by: recognizer)
        }
        let touches = recognizer.touchesSinceReset.filtered { !recognizer.ignoredTouches.contains($0) }
        if recognizer.delaysTouchesBegan { views.discardHeldBegan(of: touches) }
        if recognizer.cancelsTouchesInView { views.cancelViewDelivery(of: touches) }
        dueActions.append(recognizer)
        views.releaseHeldTouches(recognizer.touchesSinceReset)
    }

    /// Step 7.
    private func fail(
        _ recognizer: UIGestureRecognizer, _ reason: TraceRecord.GestureChangeReason, by cause: UIGestureRecognizer? = nil
    ) {
        guard recognizer.storedState == .possible else { return }
        recognizer.pendingState = nil
        recognizer.storedState = .failed
        needsSettling = true
        trace(recognizer, from: .possible, to: .failed, reason, cause)
        for other in participants where other.pendingState != nil && requires(other, toFail: recognizer) {
            let blockers = failureRequirements(of: other)
            if let recognized = Self.firstRecognized(of: blockers) {
                fail(other, .requiredFailureRecognized, by: recognized)
            } else if isPreventedByARecognizedOne(other) {
                // This failure is part of another's recognition (step 5),
                // which prevents `other` too.
                fail(other, .preventedBy)
            } else if !blockers.anySatisfy({ $0.state == .possible }), let target = other.pendingState {
                begin(other, as: target, .requiredFailuresFailed, by: recognizer)
            }
        }
        views.releaseHeldTouches(recognizer.touchesSinceReset)
    }

    /// A change between began, changed, ended and cancelled: the actions are due.
    private func transition(
        _ recognizer: UIGestureRecognizer, to newState: UIGestureRecognizer.State,
        _ reason: TraceRecord.GestureChangeReason, by cause: UIGestureRecognizer? = nil
    ) {
        let old = recognizer.storedState
        recognizer.storedState = newState
        if recognizer.isFinished { needsSettling = true }
        trace(recognizer, from: old, to: newState, reason, cause)
        dueActions.append(recognizer)
    }

    /// A recognizer disabled or taken off its view: it stops now.
    func withdraw(_ recognizer: UIGestureRecognizer) {
        guard participants.containsIdentical(recognizer) else { return }
        step {
            if recognizer.state == .possible {
                fail(recognizer, .withdrawn)
            } else if recognizer.state == .began || recognizer.state == .changed {
                transition(recognizer, to: .cancelled, .withdrawn)
                sendDueActionsNow(of: recognizer)
            }
            reset(recognizer)
        }
    }

    /// Back to the state of a new arena, as the application is reset under
    /// the recognizers: each lets go of its touches and starts over.
    func reset() {
        let recognizers = participants
        for recognizer in recognizers { reset(recognizer) }
        participants = []
        spareCandidates = []
        needsSettling = false
        operationDepth = 0
        deliveringToRecognizers = false
        dueActions = []
        spareDueActions = []
        sendingActions = false
    }

    private func reset(_ recognizer: UIGestureRecognizer) {
        // The history leaves with its storage, which comes back emptied at
        // the end, so that the next gesture refills it without allocating.
        var touches: [UITouch] = []
        swap(&touches, &recognizer.touchesSinceReset)
        defer {
            if recognizer.touchesSinceReset.isEmpty {
                touches.removeAllKeepingStorage()
                swap(&touches, &recognizer.touchesSinceReset)
            }
        }
        for touch in touches { touch.gestureRecognizerList.removeFirstIdentical(to: recognizer) }
        recognizer.currentTouches.removeAllKeepingStorage()
        if !recognizer.ignoredTouches.isEmpty { recognizer.ignoredTouches = [] }
        if !recognizer.releasedTouches.isEmpty { recognizer.releasedTouches = [] }
        recognizer.pendingState = nil
        let old = recognizer.storedState
        recognizer.storedState = .possible
        participants.removeFirstIdentical(to: recognizer)
        recognizer.arena = nil
        recognizer.cancelDeadline()
        recognizer.reset()
        if old != .possible { trace(recognizer, from: old, to: .possible, .reset, nil) }
        views.releaseHeldTouches(touches)
    }

    // MARK: Relationships

    /// The first of `recognizers` that has recognized, if any.
    private static func firstRecognized(of recognizers: [UIGestureRecognizer]) -> UIGestureRecognizer? {
        for recognizer in recognizers where recognizer.hasRecognized { return recognizer }
        return nil
    }

    private func sharesTouches(_ a: UIGestureRecognizer, _ b: UIGestureRecognizer) -> Bool {
        a.touchesSinceReset.anySatisfy { touch in b.touchesSinceReset.containsIdentical(touch) }
    }

    /// Whether a recognizer that has recognized, and shares touches with
    /// `recognizer`, prevents it (step 5).
    private func isPreventedByARecognizedOne(_ recognizer: UIGestureRecognizer) -> Bool {
        for other in participants where other !== recognizer && other.hasRecognized && sharesTouches(other, recognizer) {
            if !recognizeSimultaneously(other, recognizer), other.canPrevent(recognizer), recognizer.canBePrevented(by: other) {
                return true
            }
        }
        return false
    }

    private func recognizeSimultaneously(_ a: UIGestureRecognizer, _ b: UIGestureRecognizer) -> Bool {
        a.delegate?.gestureRecognizer(a, shouldRecognizeSimultaneouslyWith: b) == true
            || b.delegate?.gestureRecognizer(b, shouldRecognizeSimultaneouslyWith: a) == true
    }

    /// Whether `recognizer` must wait for `other` to fail.
    private func requires(_ recognizer: UIGestureRecognizer, toFail other: UIGestureRecognizer) -> Bool {
        recognizer.explicitFailureRequirements.anySatisfy { $0.recognizer === other }
            || recognizer.shouldRequireFailure(of: other)
            || other.shouldBeRequiredToFail(by: recognizer)
            || recognizer.delegate?.gestureRecognizer(recognizer, shouldRequireFailureOf: other) == true
            || other.delegate?.gestureRecognizer(other, shouldBeRequiredToFailBy: recognizer) == true
    }

    /// The recognizers `recognizer` waits for: its explicit requirements
    /// wherever they are, and any participant a delegate or subclass names.
    private func failureRequirements(of recognizer: UIGestureRecognizer) -> [UIGestureRecognizer] {
        var result: [UIGestureRecognizer] = []
        for requirement in recognizer.explicitFailureRequirements {
            if let other = requirement.recognizer, other.isAttached, other.isEnabled { result.append(other) }
        }
        for other in participants where other !== recognizer && !result.containsIdentical(other) {
            if requires(recognizer, toFail: other) { result.append(other) }
        }
        return result
    }

    private func trace(
        _ recognizer: UIGestureRecognizer, from old: UIGestureRecognizer.State, to new: UIGestureRecognizer.State,
        _ reason: TraceRecord.GestureChangeReason, _ cause: UIGestureRecognizer?
    ) {
        guard delivery.isTracing else { return }
        delivery.trace(
            .gestureStateChanged(recognizer, from: old, to: new, reason: reason, other: cause),
            touches: recognizer.touchesSinceReset)
    }
}

extension UIGestureRecognizer {
    /// Ended, failed or cancelled: done until reset.
    var isFinished: Bool { storedState == .ended || storedState == .failed || storedState == .cancelled }
    /// Began, changed or ended.
    var hasRecognized: Bool { storedState == .began || storedState == .changed || storedState == .ended }
    /// Still undecided: possible, perhaps waiting for others to fail.
    var isUndecided: Bool { storedState == .possible && isAttached && isEnabled }
    /// Whether it still receives the touches it tracks.
    var receivesTouches: Bool { isEnabled && isAttached && !isFinished }
    /// Whether it accepts a touch that is just beginning.
    var takesNewTouches: Bool { receivesTouches && pendingState == nil }
}

