// Fails the consumer build check unless every test of the README's consumer project ran and passed: a build that
// is green because Surefire found no tests (Maven 3.8's default Surefire 2.12 with JUnit 5/6) fails here.
def expected = 3
def report = new File(basedir, 'target/surefire-reports/TEST-com.example.quickstart.GreetingControllerTest.xml')
if (!report.isFile()) {
  throw new AssertionError("no Surefire report ${report}: the consumer's tests did not run (see ${basedir}/build.log)")
}
def head = report.getText('UTF-8').find(/<testsuite [^>]*>/)
def count = { String name -> (head =~ /\b${name}="(\d+)"/)[0][1] as int }
def actual = [tests: count('tests'), failures: count('failures'), errors: count('errors'), skipped: count('skipped')]
if (actual != [tests: expected, failures: 0, errors: 0, skipped: 0]) {
  throw new AssertionError("Expecting the consumer project to run ${expected} tests, all passing,\nbut it ran: ${actual}\n(see ${report})")
}
def log = new File(basedir, 'build.log').getText('UTF-8')
def summary = "Tests run: ${expected}, Failures: 0, Errors: 0, Skipped: 0"
if (!log.contains(summary)) {
  throw new AssertionError("Expecting the consumer's build.log to say \"${summary}\" but it does not (see ${basedir}/build.log)")
}
println "consumer project: ${actual.tests} tests run, 0 failures, 0 errors, 0 skipped"
return true
