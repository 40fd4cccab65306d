/// Who gets a touch, and when.
///
/// 1. A finger lands. The application asks its visible windows, front to
///    back (the highest `windowLevel` first; among equal levels, the most
///    recently shown first), to hit-test the point with `hitTest(_:with:)`.
///    The first window that returns a view owns the touch. That view and
///    window are the touch's for life: every later phase goes to them, even
///    after the finger has left the view.
/// 2. The touch's tap count goes up by one if it lands in the window of the
///    previous tap, within `GestureThresholds.maximumIntervalBetweenTaps`
///    after that tap's end and within `GestureThresholds.tapAllowableMovement`
///    of where it began, so that tap counts and multi-tap recognizers agree.
///    A window that is hidden or goes away, and a new touch screen (a new
///    `TouchSynthesizer`), start a new sequence.
/// 3. A view whose `isMultipleTouchEnabled` is false receives only the first
///    of its touches: one that lands while the view tracks another is not
///    delivered to it.
/// 4. While a view whose `isExclusiveTouch` is true tracks a touch, no other
///    view in its window receives new touches; and an exclusive view
///    receives no new touch while another view in its window tracks one.
/// 5. The application sends each event to every window that owns some of its
///    touches (`UIApplication.sendEvent(_:)`, then `UIWindow.sendEvent(_:)`).
///    The window gives its touches (``touches(of:in:)``) first to the
///    gesture recognizers of the hit-test view and its ancestors
///    (`GestureArena.swift` decides among them), then to the views
///    (``deliverToViews(_:of:)``).
/// 6. The window calls each of its views once per phase, with all of that
///    view's touches in that phase: `touchesBegan`, then `touchesMoved`,
///    `touchesEnded` and `touchesCancelled`; views in the order their touches
///    appear in the frame. Stationary touches are in the event but not
///    delivered. The view passes what it does not handle up the responder chain.
/// 7. Recognizers change what the view sees. While a recognizer with
///    `delaysTouchesBegan` is undecided, the view's `touchesBegan` (and the
///    moves after it) are held back; if the recognizer fails they are
///    delivered, in order: `touchesBegan` with the touch where and when it
///    began, then one `touchesMoved` to where it is now if it moved, as
///    Apple documents; if it recognizes they are dropped. While a
///    recognizer with `delaysTouchesEnded` (the default) is undecided, the
///    view's `touchesEnded` is held back the same way. When a recognizer with
///    `cancelsTouchesInView` (the default) recognizes, the view receives
///    `touchesCancelled` for the touches it had begun, and nothing more of them.
/// 8. A view that leaves its window while it tracks touches receives
///    `touchesCancelled` for them as the next event in the queue; from then
///    on the finger is ignored until it lifts.
///
/// The router gets what it needs from the application once, when it is
/// made (``EventPathHost``, ``EventDeliveryState``, the touches event), so
/// that it can be built and tested without one.
@MainActor
final class TouchRouter {
    /// The touches on the screen: routed, and not yet ended or cancelled, in
    /// the order they began.
    @exclusivity(unchecked) private(set) var touchesOnScreen: [UITouch] = []
    @exclusivity(unchecked) private var lastTap: TapRecord?
    /// The application's windows and queue.
    private let host: any EventPathHost
    private let delivery: EventDeliveryState
    /// The one touches event, refilled for each frame (``prepare(_:from:_:)``).
    let touchesEvent: UIEvent

    init(host: any EventPathHost, delivery: EventDeliveryState, touchesEvent: UIEvent) {
        self.host = host
        self.delivery = delivery
        self.touchesEvent = touchesEvent
    }

    /// The tap a new touch may continue (step 2).
    private struct TapRecord {
        /// The window the tap was in; the record is dropped before the window goes away.
        let window: ObjectIdentifier
        let location: CGPoint
        let time: TimeInterval
        let count: Int
    }

    /// Back to the state of a new router: no touches, no tap to follow.
    func reset() {
        touchesOnScreen = []
        lastTap = nil
    }

    // MARK: Steps 1–4: preparing an event for delivery

    /// Fills the touches event for the frame of `samples[frame]`, in three
    /// steps: the event is emptied; each sample that still applies to its
    /// touch gives the touch its state (``apply(_:to:at:)``); a touch that
    /// begins is routed (``route(_:in:)``, steps 1–4). The event then holds
    /// the frame's touches in the frame's order.
    func prepare(_ event: UIEvent, from samples: [TouchSample], _ frame: Range<Int>) {
        event.touchesInOrder.removeAllKeepingStorage()
        for index in frame {
            // Read in place, field by field: a sample copied out of the
            // buffer (as an argument, or into the closure the right side of
            // `||` is) is copied through its type's value witness, a call
            // into the runtime.
            let touch = samples[index].touch
            let phase = samples[index].phase
            if Self.comesAfterApplicationCancelled(touch, isThatCancellation: samples[index].isApplicationCancellation) { continue }
            if Self.comesAfterTouchEnded(touch, phase: phase) { continue }
            apply(samples[index], to: touch, at: event.timestamp)
            if phase == .began { route(touch, in: event) }
            event.touchesInOrder.append(touch)
        }
    }

    /// Fills the touches event for several frames of moves delivered as
    /// one (the application holds moves until the display's refresh, see
    /// `UIApplication`): each touch is in the event once, in the order it
    /// first appears; it takes its last sample's state, is moved if any of
    /// the frames moved it, and its previous location is where the last
    /// delivery left it. Every sample that moved it is kept for
    /// `coalescedTouches(for:)`, with the time of its frame.
    func prepareCoalesced(_ event: UIEvent, from samples: [TouchSample], _ frames: Range<Int>) {
        event.touchesInOrder.removeAllKeepingStorage()
        for index in frames {
            let touch = samples[index].touch
            let phase = samples[index].phase
            if Self.comesAfterApplicationCancelled(touch, isThatCancellation: samples[index].isApplicationCancellation) { continue }
            if Self.comesAfterTouchEnded(touch, phase: phase) { continue }
            if !event.touchesInOrder.containsIdentical(touch) {
                touch.previousScreenLocation = touch.screenLocation
                touch.phase = .stationary
                touch.moveReplayedThisFrame = false
                touch.coalescedSamples.removeAll(keepingCapacity: true)
                event.touchesInOrder.append(touch)
            }
            guard phase == .moved else { continue }
            let sample = samples[index]
            touch.coalescedSamples.append(CoalescedTouchSample(
                location: sample.location, previousLocation: touch.screenLocation, timestamp: sample.timestamp,
                majorRadius: sample.majorRadius, majorRadiusTolerance: sample.majorRadiusTolerance,
                force: sample.force, maximumPossibleForce: sample.maximumPossibleForce))
            touch.priorSampleLocation = touch.screenLocation
            touch.priorSampleTimestamp = touch.timestamp
            touch.screenLocation = sample.location
            touch.timestamp = sample.timestamp
            touch.phase = .moved
            touch.majorRadius = sample.majorRadius
            touch.majorRadiusTolerance = sample.majorRadiusTolerance
            touch.force = sample.force
            touch.maximumPossibleForce = sample.maximumPossibleForce
        }
    }

    /// Rule: a touch the application cancelled itself (its view left its
    /// window, step 8) takes nothing more from frames queued before that
    /// cancellation, nor from the digitizer until the finger lifts.
    private static func comesAfterApplicationCancelled(_ touch: UITouch, isThatCancellation: Bool) -> Bool {
        touch.isEndedByApplication && !isThatCancellation
    }

    /// Rule: a touch that has ended or been cancelled takes no later phase.
    private static func comesAfterTouchEnded(_ touch: UITouch, phase: UITouch.Phase) -> Bool {
        touch.isFinished && phase != .began
    }

    // Always inlined into `prepare`: called on its own, the sample it
    // borrows from the buffer is copied through its type's value witness
    // first, which cost a pan 3,500 instructions (docs/performance.md).
    @inline(__always)
    private func apply(_ sample: borrowing TouchSample, to touch: UITouch, at timestamp: TimeInterval) {
        if sample.phase == .began {
            touch.previousScreenLocation = sample.location
            touch.startScreenLocation = sample.location
            touch.startTimestamp = timestamp
            touch.priorSampleLocation = sample.location
            touch.priorSampleTimestamp = timestamp
        } else {
            touch.previousScreenLocation = touch.screenLocation
            if sample.phase != .stationary {
                touch.priorSampleLocation = touch.screenLocation
                touch.priorSampleTimestamp = touch.timestamp
            }
        }
        // One frame: the touch is its own one sample.
        if !touch.coalescedSamples.isEmpty { touch.coalescedSamples.removeAll(keepingCapacity: true) }
        touch.screenLocation = sample.location
        touch.phase = sample.phase
        touch.moveReplayedThisFrame = false
        if sample.phase != .stationary { touch.timestamp = timestamp }
        touch.majorRadius = sample.majorRadius
        touch.majorRadiusTolerance = sample.majorRadiusTolerance
        touch.force = sample.force
        touch.maximumPossibleForce = sample.maximumPossibleForce
    }

    /// Steps 1–4 for a touch that begins (``apply(_:to:at:)`` has set its
    /// location and time).
    private func route(_ touch: UITouch, in event: UIEvent) {
        touch.tapCount = 1
        touchesOnScreen.append(touch)
        // Step 1: the front-most window that hit-tests a view owns the touch.
        if delivery.isTracing { delivery.routedTouch = touch }
        let hit = host.frontmostHit(at: touch.screenLocation, with: event)
        if delivery.isTracing {
            delivery.routedTouch = nil
            delivery.trace(.touchBound(view: hit?.view, window: hit?.window), touch: touch)
        }
        guard let (window, view) = hit else {
            touch.isDeliveredToView = false
            return
        }
        touch.window = window
        touch.view = view
        touch.tapCount = tapCount(for: touch, in: window)
        // Steps 3 and 4 look at what the views of this window are tracking.
        var viewTracksAnother = false, otherViewTracks = false, exclusiveViewTracks = false
        for other in touchesOnScreen where other !== touch && other.window === window && other.isDeliveredToView {
            guard let otherView = other.view else { continue }
            if otherView === view {
                viewTracksAnother = true
            } else {
                otherViewTracks = true
                if otherView.isExclusiveTouch { exclusiveViewTracks = true }
            }
        }
        // Step 3: one touch at a time for a view that is not multiple-touch enabled.
        if !view.isMultipleTouchEnabled && viewTracksAnother {
            touch.isDeliveredToView = false
        }
        // Step 4: an exclusive view tracks alone, and is not joined while it does.
        if (view.isExclusiveTouch && otherViewTracks) || exclusiveViewTracks {
            touch.isDeliveredToView = false
            touch.isExcludedByExclusiveTouch = true
        }
    }

    /// Step 2.
    private func tapCount(for touch: UITouch, in window: UIWindow) -> Int {
        guard let lastTap, lastTap.window == ObjectIdentifier(window),
              case let interval = touch.timestamp - lastTap.time,
              interval >= 0, interval <= GestureThresholds.maximumIntervalBetweenTaps,
              distance(touch.startScreenLocation, lastTap.location) <= GestureThresholds.tapAllowableMovement
        else { return 1 }
        return lastTap.count + 1
    }

    /// Step 2: `window` is hidden or going away; a tap in it starts no sequence.
    func forgetTaps(in window: UIWindow) {
        if lastTap?.window == ObjectIdentifier(window) { lastTap = nil }
    }

    /// Step 2: the next touch begins a new tap sequence, wherever it lands.
    func startNewTapSequence() {
        lastTap = nil
    }

    // MARK: Steps 5–7: delivery in a window

    /// Step 5: the touches of `event` that `window` delivers, to its
    /// recognizers and then its views: those it owns that no exclusive
    /// view keeps from everyone.
    func touches(of event: UIEvent, in window: UIWindow) -> [UITouch] {
        var allTouchesAreThisWindows = true
        for touch in event.touchesInOrder {
            if touch.window !== window || touch.isExcludedByExclusiveTouch { allTouchesAreThisWindows = false }
        }
        return allTouchesAreThisWindows
            ? event.touchesInOrder
            : event.touchesInOrder.filtered { $0.window === window && !$0.isExcludedByExclusiveTouch }
    }

    /// Steps 6 and 7: gives `touches` of `event` to their views, once the
    /// recognizers have had them, as far as the recognizers let them through.
    func deliverToViews(_ touches: [UITouch], of event: UIEvent) {
        // Nothing for the views (a recognizer has taken the touches, or none
        // reached a view): no batch, whose destruction alone is not free.
        guard touches.containsUnretained(where: { $0.viewReceivesMore }) else { return }
        var batch = ViewDeliveryBatch()
        for touch in touches where touch.viewReceivesMore {
            switch touch.phase {
            case .began:
                if recognizersHold(.began, of: touch) { touch.heldPhases.append(.began) } else { batch.add(.began, touch) }
            case .moved:
                if touch.moveReplayedThisFrame { break }
                if touch.heldPhases.isEmpty { batch.add(.moved, touch) }
                else if touch.heldPhases.last != .moved { touch.heldPhases.append(.moved) }
            case .ended:
                if !touch.heldPhases.isEmpty || recognizersHold(.ended, of: touch) { touch.heldPhases.append(.ended) } else { batch.add(.ended, touch) }
            case .cancelled:
                cancel(touch, into: &batch)
            case .stationary:
                break
            }
        }
        batch.deliver(with: event, delivery: delivery)
    }

    /// A recognizer that cancels touches in its view recognized: the view
    /// gets `touchesCancelled` for those it had begun, and no more of any.
    func cancelViewDelivery(of touches: [UITouch]) {
        var batch = ViewDeliveryBatch()
        for touch in touches where touch.viewReceivesMore {
            cancel(touch, into: &batch)
        }
        batch.deliver(with: touchesEvent, delivery: delivery)
    }

    /// A recognizer that delays touches began recognized: the touches whose
    /// began it was holding back never reach the view.
    func discardHeldBegan(of touches: [UITouch]) {
        for touch in touches where touch.viewDelivery == .notStarted && touch.heldPhases.first == .began {
            touch.heldPhases = []
            touch.viewDelivery = .finished
        }
    }

    private func cancel(_ touch: UITouch, into batch: inout ViewDeliveryBatch) {
        touch.heldPhases = []
        if touch.viewDelivery == .began { batch.add(.cancelled, touch) }
        touch.viewDelivery = .finished
    }

    /// Delivers what the recognizers were holding back from the views, for
    /// the touches nothing holds any more, oldest phase first.
    func releaseHeldTouches(_ touches: [UITouch]) {
        var progressed = touches.containsUnretained { !$0.heldPhases.isEmpty }
        while progressed {
            progressed = false
            var batch = ViewDeliveryBatch()
            var replays: [HeldPhaseReplay] = []
            for touch in touches where !touch.heldPhases.isEmpty && touch.viewDelivery != .finished {
                let phase = touch.heldPhases[0]
                if (phase == .began || phase == .ended) && recognizersHold(phase, of: touch) { continue }
                touch.heldPhases.removeFirst()
                if phase == .moved && touch.phase == .moved { touch.moveReplayedThisFrame = true }
                if phase != .ended { replays.append(HeldPhaseReplay(showing: phase, of: touch)) }
                batch.add(phase, touch)
                progressed = true
            }
            batch.deliver(with: touchesEvent, delivery: delivery)
            for replay in replays { replay.restore() }
        }
        for touch in touches where touch.isFinished && touch.heldPhases.isEmpty { retire(touch) }
    }

    /// The application is done with a touch that ended and whose last phase
    /// reached its view: it lets go of its set and the event stops carrying
    /// it, so that nothing keeps it (or its view and window) alive. During a
    /// delivery the event keeps it until ``finish(_:)``, which must see it.
    private func retire(_ touch: UITouch) {
        touch.retire()
        if !delivery.isDeliveringEvent { touchesEvent.remove(touch) }
    }

    /// Step 7: whether an undecided recognizer of `touch` that delays
    /// `phase` (`.began` by `delaysTouchesBegan`, `.ended` by
    /// `delaysTouchesEnded`) holds that phase back from the view.
    private func recognizersHold(_ phase: UITouch.Phase, of touch: UITouch) -> Bool {
        for recognizer in touch.gestureRecognizerList
        where (phase == .began ? recognizer.delaysTouchesBegan : recognizer.delaysTouchesEnded)
            && recognizer.isUndecided && !recognizer.ignoredTouches.contains(touch)
            && !(phase == .began && recognizer.releasedTouches.contains(touch)) {
            return true
        }
        return false
    }

    /// Forgets the touches that ended in `event`, remembering a tap for step 2.
    func finish(_ event: UIEvent) {
        var retiredAny = false
        for touch in event.touchesInOrder where touch.isFinished {
            touchesOnScreen.removeFirstIdentical(to: touch)
            if touch.heldPhases.isEmpty {
                touch.retire()
                retiredAny = true
            }
            if touch.phase == .ended && !touch.isEndedByApplication, let window = touch.window,
               distance(touch.screenLocation, touch.startScreenLocation) <= GestureThresholds.tapAllowableMovement {
                lastTap = TapRecord(window: ObjectIdentifier(window), location: touch.startScreenLocation,
                                    time: touch.timestamp, count: touch.tapCount)
            } else {
                lastTap = nil
            }
        }
        if retiredAny { event.touchesInOrder.removeEvery { $0.isFinished && $0.heldPhases.isEmpty } }
    }

    // MARK: Step 8: views leaving their window

    /// Cancels the touches of `view` and its subviews: called when the view
    /// leaves its window.
    func viewDidLeaveWindow(_ view: UIView) {
        guard !touchesOnScreen.isEmpty else { return }
        cancelByApplication(touchesOnScreen.filtered { touch in
            guard let touchView = touch.view else { return false }
            return touchView.isDescendant(of: view)
        })
    }

    /// Cancels every touch on the screen: called as the application leaves
    /// the front, whatever the event server still says about those fingers.
    func cancelAllTouches() {
        guard !touchesOnScreen.isEmpty else { return }
        cancelByApplication(touchesOnScreen)
    }

    /// Queues a frame cancelling `touches` (those not already ended by the
    /// application); from then on their fingers are ignored until they lift.
    private func cancelByApplication(_ touches: [UITouch]) {
        let orphans = touches.filtered { !$0.isEndedByApplication }
        guard !orphans.isEmpty else { return }
        var samples: [TouchSample] = []
        for touch in orphans {
            touch.isEndedByApplication = true
            samples.append(TouchSample(
                touch: touch, phase: .cancelled, location: touch.screenLocation,
                majorRadius: touch.majorRadius, majorRadiusTolerance: touch.majorRadiusTolerance,
                force: touch.force, maximumPossibleForce: touch.maximumPossibleForce,
                isApplicationCancellation: true))
        }
        host.enqueueTouchFrameNow(samples)
    }

    private func distance(_ a: CGPoint, _ b: CGPoint) -> CGFloat {
        hypot(a.x - b.x, a.y - b.y)
    }
}


/// A touch made to look, while a phase held back from its view is
/// delivered, as it did for that phase, then put back as it is now. The
/// began phase shows where and when the touch began (a drawing view's line
/// starts where the finger landed); the one move that stands for all those
/// held back goes from there to where the touch is now. Apple: the window
/// delivers held touches "in a touchesBegan(_:with:) message (and possibly
/// a follow-up touchesMoved(_:with:) message to inform it of the touches'
/// current locations)".
@MainActor
private struct HeldPhaseReplay {
    private let touch: UITouch
    private let phase: UITouch.Phase
    private let location: CGPoint, previousLocation: CGPoint
    private let timestamp: TimeInterval

    init(showing heldPhase: UITouch.Phase, of touch: UITouch) {
        self.touch = touch
        phase = touch.phase
        location = touch.screenLocation
        previousLocation = touch.previousScreenLocation
        timestamp = touch.timestamp
        touch.phase = heldPhase
        touch.previousScreenLocation = touch.startScreenLocation
        if heldPhase == .began {
            touch.screenLocation = touch.startScreenLocation
            touch.timestamp = touch.startTimestamp
        }
    }

    func restore() {
        touch.phase = phase
        touch.screenLocation = location
        touch.previousScreenLocation = previousLocation
        touch.timestamp = timestamp
    }
}

private extension UITouch {
    /// Whether the touch's view is still to receive phases of it: the touch
    /// was given to the view, and neither its end nor a recognizer that
    /// cancels touches in the view has finished that.
    var viewReceivesMore: Bool { isDeliveredToView && viewDelivery != .finished }
}

/// The view calls of one delivery: each view once per phase with all its
/// touches, phases in the order began, moved, ended, cancelled.
@MainActor
private struct ViewDeliveryBatch {
    private struct Entry {
        let phase: UITouch.Phase
        let view: UIView
        let first: UITouch
        /// Further touches of the view in this phase (rare: no storage until then).
        var others: [UITouch] = []
    }

    /// The first view call, and any others: a frame usually makes one.
    private var firstEntry: Entry?
    private var otherEntries: [Entry] = []

    mutating func add(_ phase: UITouch.Phase, _ touch: UITouch) {
        guard let view = touch.view else { return }
        switch phase {
        case .began: touch.viewDelivery = .began
        case .ended, .cancelled: touch.viewDelivery = .finished
        case .moved, .stationary: break
        }
        guard firstEntry != nil else {
            firstEntry = Entry(phase: phase, view: view, first: touch)
            return
        }
        if firstEntry!.phase == phase && firstEntry!.view === view {
            firstEntry!.others.append(touch)
            return
        }
        for index in otherEntries.indices where otherEntries[index].phase == phase && otherEntries[index].view === view {
            otherEntries[index].others.append(touch)
            return
        }
        otherEntries.append(Entry(phase: phase, view: view, first: touch))
    }

    /// Makes the view calls, tracing each first.
    func deliver(with event: UIEvent, delivery: EventDeliveryState) {
        guard let firstEntry else { return }
        if otherEntries.isEmpty {
            Self.deliver(firstEntry, with: event, delivery: delivery)
            return
        }
        for phase in UITouch.Phase.deliveryOrder {
            if firstEntry.phase == phase { Self.deliver(firstEntry, with: event, delivery: delivery) }
            for entry in otherEntries where entry.phase == phase { Self.deliver(entry, with: event, delivery: delivery) }
        }
    }

    private static func deliver(_ entry: Entry, with event: UIEvent, delivery: EventDeliveryState) {
        // A lone touch goes in the set its recognizers were given.
        let touches = entry.others.isEmpty ? entry.first.setOfSelf : Set([entry.first] + entry.others)
        if delivery.isTracing {
            delivery.trace(.touchesDelivered(entry.phase, to: entry.view, touchCount: touches.count), touches: [entry.first] + entry.others)
        }
        switch entry.phase {
        case .began: entry.view.touchesBegan(touches, with: event)
        case .moved: entry.view.touchesMoved(touches, with: event)
        case .ended: entry.view.touchesEnded(touches, with: event)
        case .cancelled: entry.view.touchesCancelled(touches, with: event)
        case .stationary: break
        }
    }
}
