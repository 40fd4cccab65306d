/// Groups changes to layers so that they reach the screen together.
///
/// Every change to a layer belongs to a transaction. Changes made outside
/// an explicit ``begin()``/``commit()`` pair open an implicit transaction,
/// which the application commits at the end of the run-loop turn. A commit
/// lays out the layers marked for layout (top down), displays the layers
/// marked for display, and then copies the changed layers into the
/// committed trees that compositors draw from.
///
/// Transactions nest: only the outermost commit sends the changes, and an
/// explicit transaction begun while an implicit one is open is sent with it.
/// A completion block runs once the transaction has committed and every
/// animation added to a layer after the block was set, inside the
/// transaction, has ended or been removed; with no such animation, right
/// after the commit.
///
/// Core Animation keeps one transaction stack per thread; layers here are
/// main-actor objects, so there is one stack, on the main actor.
@MainActor
public final class CATransaction {
    private init() {}

    /// Opens an explicit transaction, nested in any that is open.
    public static func begin() {
        TransactionState.current.begin()
    }

    /// Closes the innermost explicit transaction. Closing the outermost one
    /// commits its changes unless an implicit transaction holds them (then
    /// they are committed with it). A commit without a begin is ignored.
    public static func commit() {
        TransactionState.current.commit()
    }

    /// Commits the implicit transaction now, rather than at the end of the
    /// run-loop turn; inside an explicit transaction, as soon as the
    /// outermost one commits.
    public static func flush() {
        TransactionState.current.flush()
    }

    /// Locking exists for threads; layers here live on the main actor.
    public static func lock() {}
    public static func unlock() {}

    /// Whether layer actions (implicit animations) are turned off in the
    /// innermost transaction that says so.
    public static func disableActions() -> Bool {
        TransactionState.current.setting(\.disableActions) ?? false
    }

    public static func setDisableActions(_ flag: Bool) {
        TransactionState.current.innermost.disableActions = flag
    }

    /// The duration animations added in this transaction would have;
    /// 0.25 s unless a transaction says otherwise, as in Core Animation.
    public static func animationDuration() -> TimeInterval {
        TransactionState.current.setting(\.animationDuration) ?? defaultAnimationDuration
    }

    public static func setAnimationDuration(_ duration: TimeInterval) {
        guard duration.isFinite, duration >= 0 else { return }
        TransactionState.current.innermost.animationDuration = duration
    }

    /// Core Animation's documented default for `animationDuration`.
    public static let defaultAnimationDuration: TimeInterval = 0.25

    /// The timing function given to animations added in this transaction
    /// that have none (the implicit ones among them); nil unless a
    /// transaction sets one, which leaves them linear.
    public static func animationTimingFunction() -> CAMediaTimingFunction? {
        TransactionState.current.setting(\.timingFunction)
    }

    public static func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) {
        TransactionState.current.innermost.timingFunction = function
    }

    /// The block run once the innermost transaction's changes are
    /// committed and its animations are over.
    public static func completionBlock() -> (@MainActor () -> Void)? {
        TransactionState.current.innermost.completion?.block
    }

    /// Sets the block run once the innermost transaction has committed and
    /// the animations added in it from now on have all ended (finished or
    /// removed). Setting another replaces it.
    public static func setCompletionBlock(_ block: (@MainActor () -> Void)?) {
        TransactionState.current.innermost.completion = block.map(TransactionCompletion.init)
    }

    public static func value(forKey key: String) -> Any? {
        TransactionState.current.value(forKey: key)
    }

    public static func setValue(_ anObject: Any?, forKey key: String) {
        TransactionState.current.innermost.values[key] = anObject
    }
}

/// Something that keeps a committed copy of a layer tree: told at every
/// commit to copy what changed.
@MainActor
package protocol CommittedTreeHost: AnyObject {
    func commitChanges()
}

/// The transaction stack and what waits for the next commit: layers to lay
/// out and display, changed layers, the trees that copy them, completions.
@MainActor
package final class TransactionState {
    package static let current = TransactionState()

    /// One open transaction: the implicit one at the bottom, when open, then
    /// the explicit ones.
    package struct Frame {
        var disableActions: Bool?
        var animationDuration: TimeInterval?
        var timingFunction: CAMediaTimingFunction?
        var completion: TransactionCompletion?
        var values: [String: Any] = [:]
    }

    /// Explicit transactions, outermost first.
    private var explicit: [Frame] = []
    /// The implicit transaction, when one is open. Read at the end of every
    /// run-loop turn, so unchecked for overlapping access (the test suite
    /// runs again with the checks on).
    @exclusivity(unchecked) private var implicit: Frame?
    private var flushRequested = false
    /// Not retained, as the layers' own marks are not: a layer that goes
    /// away while listed empties its place (``forget(_:)``), which it knows
    /// (``CALayer/layoutQueueSlot``). A list holds no empty place at its end.
    private var layersNeedingLayout: [UnretainedReference<CALayer>?] = []
    private var layersNeedingDisplay: [UnretainedReference<CALayer>?] = []
    /// The layers of the layout or display pass under way, retained while
    /// it runs. The three lists keep their storage from turn to turn, so
    /// that a warm turn allocates nothing for them.
    private var layersInPass: [CALayer] = []
    /// Completion blocks of transactions closed but not yet committed.
    private var pendingCompletions: [@MainActor () -> Void] = []
    private var hosts: [WeakHost] = []
    private var isCommitting = false

    /// How many commits have sent changes: for tests of the update cycle.
    package private(set) var commitCount = 0

    private struct WeakHost {
        weak var host: (any CommittedTreeHost)?
    }

    /// Forgets everything open and pending, for a test that wants a clean start.
    package func reset() {
        explicit = []
        implicit = nil
        flushRequested = false
        for case let entry? in layersNeedingLayout { entry.object.layoutQueueSlot = nil }
        for case let entry? in layersNeedingDisplay { entry.object.displayQueueSlot = nil }
        layersNeedingLayout = []
        layersNeedingDisplay = []
        pendingCompletions = []
        hosts = []
        isCommitting = false
        commitCount = 0
    }

    // MARK: The stack

    func begin() {
        explicit.append(Frame())
    }

    func commit() {
        guard let frame = explicit.popLast() else { return }
        if let completion = frame.completion { pendingCompletions.append(completion.close) }
        guard explicit.isEmpty else { return }
        if implicit == nil || flushRequested { commitNow() }
    }

    func flush() {
        if explicit.isEmpty { commitNow() } else { flushRequested = true }
    }

    /// The innermost open transaction; opens the implicit one when none is.
    var innermost: Frame {
        get { explicit.last ?? implicit ?? Frame() }
        set {
            if explicit.isEmpty { implicit = newValue } else { explicit[explicit.count - 1] = newValue }
        }
    }

    func setting<Value>(_ key: KeyPath<Frame, Value?>) -> Value? {
        for frame in explicit.reversed() { if let value = frame[keyPath: key] { return value } }
        return implicit?[keyPath: key]
    }

    func value(forKey key: String) -> Any? {
        for frame in explicit.reversed() { if let value = frame.values[key] { return value } }
        return implicit?.values[key]
    }

    // MARK: What waits for the commit

    private func openImplicitIfNeeded() {
        if explicit.isEmpty && implicit == nil { implicit = Frame() }
    }

    func layerDidChange() {
        openImplicitIfNeeded()
    }

    func layerNeedsLayout(_ layer: CALayer) {
        layer.layoutQueueSlot = layersNeedingLayout.count
        layersNeedingLayout.append(UnretainedReference(layer))
        openImplicitIfNeeded()
    }

    func layerNeedsDisplay(_ layer: CALayer) {
        layer.displayQueueSlot = layersNeedingDisplay.count
        layersNeedingDisplay.append(UnretainedReference(layer))
        openImplicitIfNeeded()
    }

    /// A listed layer is going away.
    func forget(_ layer: CALayer) {
        if let slot = layer.layoutQueueSlot { Self.empty(slot, of: &layersNeedingLayout) }
        if let slot = layer.displayQueueSlot { Self.empty(slot, of: &layersNeedingDisplay) }
    }

    /// Empties one place, then drops the empty places at the end, so that a
    /// list whose layers have all gone away is empty.
    private static func empty(_ slot: Int, of list: inout [UnretainedReference<CALayer>?]) {
        list[slot] = nil
        while let last = list.last, last == nil { list.removeLast() }
    }

    /// The completion blocks of the open transactions, which an animation
    /// added now makes wait for it.
    func completionsWaitingForAnimations() -> [TransactionCompletion] {
        var waiting: [TransactionCompletion] = []
        if let completion = implicit?.completion { waiting.append(completion) }
        for frame in explicit { if let completion = frame.completion { waiting.append(completion) } }
        return waiting
    }

    /// Runs `block` after the next commit (opening the implicit
    /// transaction, so that there is one), with the completion blocks.
    package func afterNextCommit(_ block: @escaping @MainActor () -> Void) {
        pendingCompletions.append(block)
        openImplicitIfNeeded()
    }

    package func addHost(_ host: any CommittedTreeHost) {
        hosts.removeAll { $0.host == nil }
        hosts.append(WeakHost(host: host))
    }

    /// Whether the implicit transaction is open: the run loop's end-of-turn
    /// observer asks, and commits it when it is.
    package var hasImplicitTransaction: Bool { implicit != nil }

    /// Commits the implicit transaction, if one is open and no explicit one
    /// is: the end of a run-loop turn.
    package func commitImplicitTransaction() {
        guard implicit != nil, explicit.isEmpty else { return }
        commitNow()
    }

    /// Layout, display, then the copy into the committed trees, then the
    /// completion blocks. Layout and display may mark more layers; they are
    /// handled in the same commit, up to a bound that stops a layer that
    /// marks itself every time from hanging the application.
    private func commitNow() {
        guard !isCommitting else { return }
        isCommitting = true
        defer { isCommitting = false }
        flushRequested = false
        if let completion = implicit?.completion { pendingCompletions.append(completion.close) }
        implicit = nil

        for _ in 0..<Self.maximumLayoutAndDisplayRounds {
            guard !layersNeedingLayout.isEmpty || !layersNeedingDisplay.isEmpty else { break }
            layOutMarkedTrees()
            displayMarkedLayers()
        }
        for entry in hosts { entry.host?.commitChanges() }
        commitCount += 1
        // A layer marked during this commit's last round, or changed by a
        // completion block, opens the next implicit transaction.
        implicit = nil
        if !layersNeedingLayout.isEmpty || !layersNeedingDisplay.isEmpty { openImplicitIfNeeded() }
        let completions = pendingCompletions
        pendingCompletions = []
        for completion in completions { completion() }
    }

    /// Layout and display passes one commit makes at most before leaving the
    /// rest for the next turn (chosen here; Core Animation does not say).
    package static let maximumLayoutAndDisplayRounds = 8

    /// Lays out every tree that has a marked layer, from its root down.
    private func layOutMarkedTrees() {
        for case let entry? in layersNeedingLayout {
            entry.object.layoutQueueSlot = nil
            layersInPass.append(entry.object)
        }
        layersNeedingLayout.removeAll(keepingCapacity: true)
        defer { layersInPass.removeAll(keepingCapacity: true) }
        for layer in layersInPass where layer.needsLayout() {
            // The marks up the tree may be missing: the layer may have been
            // marked before it joined this tree.
            var root = layer
            while let parent = root.superlayer {
                parent.markDescendantNeedsLayout()
                root = parent
            }
            root.layoutIfNeeded()
        }
    }

    private func displayMarkedLayers() {
        for case let entry? in layersNeedingDisplay {
            entry.object.displayQueueSlot = nil
            layersInPass.append(entry.object)
        }
        layersNeedingDisplay.removeAll(keepingCapacity: true)
        defer { layersInPass.removeAll(keepingCapacity: true) }
        for layer in layersInPass { layer.displayIfNeeded() }
    }
}

/// A transaction's completion block and the animations it waits for: it
/// runs once the transaction has committed (`close()`) and no animation
/// added in it is still running.
@MainActor
final class TransactionCompletion {
    let block: @MainActor () -> Void
    var pending = 0
    private var isClosed = false
    private var hasRun = false

    init(_ block: @escaping @MainActor () -> Void) {
        self.block = block
    }

    func close() {
        isClosed = true
        runIfDone()
    }

    func animationEnded() {
        pending -= 1
        runIfDone()
    }

    private func runIfDone() {
        guard isClosed, pending <= 0, !hasRun else { return }
        hasRun = true
        block()
    }
}
