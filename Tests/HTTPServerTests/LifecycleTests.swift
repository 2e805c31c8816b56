import Foundation
import HTTPServer
import Synchronization
import Testing

@Suite struct LifecycleTests {
    @Test func stoppingLetsAnInFlightRequestFinishAndRefusesNewConnections() throws {
        let server = try startServer()
        let port = server.port
        let answer = Mutex<String?>(nil)
        let clientDone = DispatchSemaphore(value: 0)
        Thread {
            let text: String
            do {
                let connection = try RawHTTPConnection(port: port)
                let response = try connection.request("GET", "/slow")
                text = "\(response.status) \(response.text)"
            } catch {
                text = "failed: \(error)"
            }
            answer.withLock { $0 = text }
            clientDone.signal()
        }.start()

        let deadline = Date().addingTimeInterval(5)
        while server.inFlight == 0 && Date() < deadline { usleep(5_000) }
        #expect(server.inFlight == 1)

        let stopped = DispatchSemaphore(value: 0)
        let stopStarted = Date()
        Thread {
            server.stop(drainTimeout: 5)
            stopped.signal()
        }.start()
        // The stopping thread closes the listener soon, but on a loaded machine not always within a fixed sleep: ask
        // until a connect is refused, while the in-flight request (one second) still runs.
        var refusal = RawHTTPConnection.connectionError(port: port)
        while refusal != ECONNREFUSED && server.inFlight == 1 && Date().timeIntervalSince(stopStarted) < 0.9 {
            usleep(10_000)
            refusal = RawHTTPConnection.connectionError(port: port)
        }
        #expect(refusal == ECONNREFUSED)

        #expect(clientDone.wait(timeout: .now() + 5) == .success)
        #expect(answer.withLock { $0 } == "200 slept")
        #expect(stopped.wait(timeout: .now() + 5) == .success)
        #expect(Date().timeIntervalSince(stopStarted) < 4)
        #expect(server.inFlight == 0)
    }

    @Test func stoppingWaitsNoLongerThanTheDrainTimeout() throws {
        let server = try startServer()
        let port = server.port
        Thread {
            _ = try? RawHTTPConnection(port: port).request("GET", "/slow")
        }.start()
        let deadline = Date().addingTimeInterval(5)
        while server.inFlight == 0 && Date() < deadline { usleep(5_000) }
        let started = Date()
        server.stop(drainTimeout: 0.2)
        // The handler still sleeps its second out: MHD_stop_daemon joins the pool threads.
        #expect(Date().timeIntervalSince(started) < 1.5)
    }

    @Test func startingOnAPortAlreadyInUseThrowsNamingIt() throws {
        let first = try startServer()
        defer { first.stop(drainTimeout: 1) }
        let second = Server(
            configuration: ServerConfiguration(host: "127.0.0.1", port: first.port),
            responder: TestResponder()
        )
        do {
            try second.start()
            Issue.record("start() did not throw")
        } catch {
            #expect(error.isAddressInUse)
            #expect("\(error)".contains("bind 127.0.0.1 port \(first.port)"))
            #expect("\(error)".contains("Address already in use"))
        }
    }

    @Test func theServerReportsThePortItBound() throws {
        let server = try startServer()
        defer { server.stop(drainTimeout: 1) }
        #expect(server.port > 0)
        #expect(RawHTTPConnection.connectionError(port: server.port) == nil)
    }
}
