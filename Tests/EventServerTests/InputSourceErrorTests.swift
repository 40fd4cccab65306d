import Testing
import EventServer

@Suite struct InputSourceErrorTests {
    @Test func anUnreadableSourceSaysWhatToDo() {
        let error = InputSourceError.unreadable("/dev/input/event3: permission denied; add yourself to the input group")
        #expect(error.description == "/dev/input/event3: permission denied; add yourself to the input group")
        #expect(InputSourceError.endOfInput.description == "end of input")
    }
}
