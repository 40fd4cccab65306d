import TestExpectations
import Testing
import EventServer

@Suite struct InputSourceErrorTests {
    @Test func anUnreadableSourceSaysWhatToDo() {
        let error = InputSourceError.unreadable("/dev/input/event3: permission denied; add yourself to the input group")
        expectEqual(error.description, "/dev/input/event3: permission denied; add yourself to the input group")
        expectEqual(InputSourceError.endOfInput.description, "end of input")
    }
}
