import Foundation
import Service

// Parses the subcommand and calls into the libraries; nothing else lives here.
let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessInfo.processInfo.environment
let status: Int32
switch arguments.first {
case "serve": status = Subcommands.serve(environment: environment)
case "migrate": status = Subcommands.migrate(environment: environment)
case "dev": status = Subcommands.dev(environment: environment)
case "replay": status = ReplayCommand.run(arguments: Array(arguments.dropFirst()), environment: environment)
case "admin": status = AdminCommand.run(arguments: Array(arguments.dropFirst()), environment: environment)
case "work": status = WorkCommand.run(arguments: Array(arguments.dropFirst()), environment: environment)
case "jobs": status = JobsCommand.run(arguments: Array(arguments.dropFirst()), environment: environment)
case "audit": status = AuditCommand.run(arguments: Array(arguments.dropFirst()), environment: environment)
case "keys": status = KeysCommand.run(arguments: Array(arguments.dropFirst()), environment: environment)
case "help", "--help", "-h", nil: status = Subcommands.help()
case let other?:
    FileHandle.standardError.write(Data("handoff: unknown command \"\(other)\"; see handoff help\n".utf8))
    status = 2
}
exit(status)
