import Postgres

extension Replayer {
    /// Makes `target`'s privileges those of `source`, table and column privileges (LIKE copies no grants; default
    /// privileges may differ).
    func copyGrants(from source: String, to target: String, on connection: Connection) throws {
        let grantee = "CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END"
        let existing = try connection.query("""
            SELECT DISTINCT \(grantee) AS grantee FROM pg_class c, aclexplode(c.relacl) a
            WHERE c.oid = $1::regclass
            """, [.text(target)]).rows.compactMap { $0["grantee"] }
        for role in Set(existing + ["PUBLIC"]) {
            try connection.execute("REVOKE ALL ON \(target) FROM \(role)")
        }
        let grants = try connection.query("""
            SELECT \(grantee) AS grantee, a.privilege_type, a.is_grantable
            FROM pg_class c, aclexplode(coalesce(c.relacl, acldefault('r', c.relowner))) a
            WHERE c.oid = $1::regclass
            """, [.text(source)]).rows
        for grant in grants {
            let option = try grant.bool("is_grantable") ? " WITH GRANT OPTION" : ""
            try connection.execute(
                "GRANT \(try grant.string("privilege_type")) ON \(target) TO \(try grant.string("grantee"))\(option)")
        }
        // Column privileges (e.g. UPDATE of the few columns a projection moves); `target` has none yet.
        let columnGrants = try connection.query("""
            SELECT \(grantee) AS grantee, a.privilege_type, a.is_grantable, quote_ident(c.attname) AS column_name
            FROM pg_attribute c, aclexplode(c.attacl) a
            WHERE c.attrelid = $1::regclass AND c.attnum > 0 AND NOT c.attisdropped AND c.attacl IS NOT NULL
            ORDER BY c.attnum
            """, [.text(source)]).rows
        for grant in columnGrants {
            let option = try grant.bool("is_grantable") ? " WITH GRANT OPTION" : ""
            try connection.execute("GRANT \(try grant.string("privilege_type")) (\(try grant.string("column_name"))) "
                                   + "ON \(target) TO \(try grant.string("grantee"))\(option)")
        }
    }

    /// Gives `target` the row-level security of `source`: whether it is enabled (and forced) and every policy, with
    /// its roles, command and expressions (LIKE copies none of it, and a table without it would show every org's rows
    /// to the application role).
    func copyRowSecurity(from source: String, to target: String, on connection: Connection) throws {
        let flags = try connection.query("""
            SELECT relrowsecurity, relforcerowsecurity FROM pg_class WHERE oid = $1::regclass
            """, [.text(source)]).rows[0]
        if try flags.bool("relrowsecurity") {
            try connection.execute("ALTER TABLE \(target) ENABLE ROW LEVEL SECURITY")
        }
        if try flags.bool("relforcerowsecurity") {
            try connection.execute("ALTER TABLE \(target) FORCE ROW LEVEL SECURITY")
        }
        let policies = try connection.query("""
            SELECT format('CREATE POLICY %I ON %s AS %s FOR %s TO %s%s%s', p.polname, $2::text,
                CASE WHEN p.polpermissive THEN 'PERMISSIVE' ELSE 'RESTRICTIVE' END,
                CASE p.polcmd WHEN 'r' THEN 'SELECT' WHEN 'a' THEN 'INSERT' WHEN 'w' THEN 'UPDATE'
                              WHEN 'd' THEN 'DELETE' ELSE 'ALL' END,
                (SELECT string_agg(CASE WHEN r = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(r)) END, ', ')
                 FROM unnest(p.polroles) r),
                ' USING (' || pg_get_expr(p.polqual, p.polrelid) || ')',
                ' WITH CHECK (' || pg_get_expr(p.polwithcheck, p.polrelid) || ')') AS statement
            FROM pg_policy p WHERE p.polrelid = $1::regclass ORDER BY p.polname
            """, [.text(source), .text(target)]).rows
        for policy in policies { try connection.execute(try policy.string("statement")) }
    }
}
