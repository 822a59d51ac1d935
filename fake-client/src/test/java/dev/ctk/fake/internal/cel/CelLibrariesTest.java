package dev.ctk.fake.internal.cel;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cel.runtime.CelEvaluationException;
import dev.ctk.fake.internal.schema.Schema;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CEL environment of CRD rules: the Kubernetes libraries the fake implements (lists, regex, URLs, quantities,
 * IP/CIDR, formats) and the cel-java libraries kube enables (strings, sets, optionals, cross-type numbers), with
 * kube's texts for evaluation errors.
 */
class CelLibrariesTest {

  @ParameterizedTest
  @ValueSource(strings = {
      // kube lists
      "[1, 2, 3].isSorted() && !([3, 1].isSorted()) && ['a', 'b'].isSorted()",
      "[1, 2, 3].sum() == 6 && [1.5, 2.5].sum() == 4.0 && [duration('1s'), duration('2s')].sum() == duration('3s')",
      "[3, 1, 2].min() == 1 && [3, 1, 2].max() == 3 && ['b', 'a'].min() == 'a'",
      "[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2 && [1].indexOf(5) == -1",
      // kube regex
      "'abc 123'.find('[0-9]+') == '123' && 'abc'.find('[0-9]+') == ''",
      "'1, 2, 3'.findAll('[0-9]+') == ['1', '2', '3'] && '1, 2, 3'.findAll('[0-9]+', 2) == ['1', '2']",
      "'abc 123'.findAll('[0-9]*') == ['', '', '', '', '123']",
      // kube URLs
      "url('https://example.com:80/').getHost() == 'example.com:80'",
      "url('https://example.com:80/').getHostname() == 'example.com' && url('https://example.com:80/').getPort() == '80'",
      "url('https://example.com/path with spaces/').getEscapedPath() == '/path%20with%20spaces/'",
      "url('https://example.com/a?b=c&b=d&e').getQuery() == {'b': ['c', 'd'], 'e': ['']}",
      "url('https://[::1]:80/').getHostname() == '::1' && url('HTTPS://x').getScheme() == 'https'",
      "isURL('https://example.com') && isURL('/relative/path') && !isURL('example.com') && !isURL('')",
      // kube quantities
      "quantity('1Gi') == quantity('1024Mi') && quantity('200M').compareTo(quantity('0.2G')) == 0",
      "quantity('50k').asInteger() == 50000 && !quantity('1.5').isInteger() && quantity('1').isInteger()",
      "quantity('50k').add(20).sub(quantity('100k')).sub(-50000) == quantity('20')",
      "quantity('9999999999999999999999999999999999999G').asApproximateFloat() > 1e40",
      "quantity('-1').sign() == -1 && quantity('0').sign() == 0 && quantity('500m').asApproximateFloat() == 0.5",
      "quantity('150Mi').isGreaterThan(quantity('100Mi')) && quantity('50M').isLessThan(quantity('100M'))",
      "isQuantity('1e3') && quantity('1e3') == quantity('1k') && !isQuantity('1Ki1') && !isQuantity('abc')",
      // kube IP and CIDR
      "isIP('10.0.0.1') && !isIP('10.0.0.01') && !isIP('::ffff:1.2.3.4') && !isIP('fe80::1%eth0')",
      "ip('10.0.0.1').family() == 4 && ip('2001:db8::1').family() == 6",
      "ip('127.0.0.1').isLoopback() && ip('::1').isLoopback() && ip('0.0.0.0').isUnspecified()",
      "ip('169.254.1.1').isLinkLocalUnicast() && ip('fe80::1').isLinkLocalUnicast()",
      "ip('224.0.0.1').isLinkLocalMulticast() && ip('8.8.8.8').isGlobalUnicast()",
      "!ip('255.255.255.255').isGlobalUnicast() && !ip('ff02::1').isGlobalUnicast()",
      "ip.isCanonical('2001:db8::1') && !ip.isCanonical('2001:DB8::1')",
      "string(ip('2001:0db8:0:0:0:0:0:1')) == '2001:db8::1' && string(ip('::')) == '::'",
      "cidr('10.0.0.0/8').containsIP('10.1.2.3') && !cidr('10.0.0.0/8').containsIP(ip('11.0.0.1'))",
      "cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16') && !cidr('10.1.0.0/16').containsCIDR(cidr('10.0.0.0/8'))",
      "string(cidr('10.1.2.3/8').masked()) == '10.0.0.0/8' && cidr('10.1.2.3/8').ip() == ip('10.1.2.3')",
      "cidr('2001:db8::/32').prefixLength() == 32 && isCIDR('10.0.0.0/8') && !isCIDR('10.0.0.0/33')",
      // kube formats
      "!format.dns1123Label().validate('web-1').hasValue() && format.dns1123Label().validate('a.b').value() "
          + "== ['must not contain dots']",
      "format.named('labelValue').hasValue() && !format.named('nope').hasValue()",
      "format.named('uuid').value().validate('nope').value() == ['does not match the UUID format']",
      "!format.uri().validate('https://x').hasValue() && !format.qualifiedName().validate('example.com/My').hasValue()",
      "!format.dns1123LabelPrefix().validate('web-').hasValue() && format.dns1035Label().validate('1a').hasValue()",
      "!format.date().validate('2024-02-29').hasValue() && format.datetime().validate('2024-02-29').hasValue()",
      // cel-java strings (kube's ext.Strings v2 but format), sets, optionals, cross-type numbers, time
      "'Hello'.lowerAscii() == 'hello' && 'hello'.upperAscii() == 'HELLO' && 'hello'.charAt(1) == 'e'",
      "'hello'.indexOf('l') == 2 && 'hello'.lastIndexOf('l') == 3 && 'hello'.substring(1, 3) == 'el'",
      "'a,b'.split(',') == ['a', 'b'] && ['a', 'b'].join('-') == 'a-b' && ' x '.trim() == 'x'",
      "'hello'.replace('l', 'L') == 'heLLo'",
      "sets.contains([1, 2, 3], [2]) && sets.equivalent([1, 2], [2, 1]) && sets.intersects([1], [1, 2])",
      "optional.of(1).value() == 1 && optional.none().orValue(2) == 2 && {'a': 1}.?b.orValue(0) == 0",
      "1 < 1.5 && 2u > 1 && 2.5 >= 2",
      "timestamp('2020-01-01T00:00:00Z').getFullYear() == 2020 && duration('1h30m') == duration('90m')"})
  void expression_isTrue(String expression) {
    // WHEN
    Object result = eval(expression);

    // THEN
    assertThat(result).as(expression).isEqualTo(true);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
      [1].filter(x, x > 1).min() == 1 | min called on empty list
      [1, 2][5] == 1 | index out of bounds: 5
      {'a': 1}['b'] == 1 | no such key: b
      9223372036854775807 + [1][0] > 0 | integer overflow
      1 / [0][0] == 1 | division by zero
      optional.none().value() == 1 | optional.none() dereference
      quantity('abc') == quantity('1') | quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'
      quantity('1Z') == quantity('1') | quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'
      quantity('1K') == quantity('1') | unable to parse quantity's suffix
      quantity('1.5').asInteger() == 1 | cannot convert value to integer
      url('not a url').getHost() == '' | URL parse error during conversion from string: parse "not a url": invalid URI for request
      url('https://exa mple.com').getHost() == '' | URL parse error during conversion from string: parse "https://exa mple.com": invalid character " " in host name
      ip('10.0.0.01').family() == 4 | IP Address "10.0.0.01" parse error during conversion from string: ParseAddr("10.0.0.01"): IPv4 field has octet with leading zero
      ip('::ffff:1.2.3.4').family() == 6 | IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed
      ip('fe80::1%eth0').family() == 6 | IP address "fe80::1%eth0" with zone value is not allowed
      cidr('10.0.0.0/33').prefixLength() == 1 | network address parse error during conversion from string: netip.ParsePrefix("10.0.0.0/33"): prefix length out of range
      'abc'.find('[' + '') == '' | Illegal regex: error parsing regexp: missing closing ]: `[`
      """)
  void failingExpression_givesKubesErrorText(String expression, String error) {
    // WHEN
    Object result = eval(expression);

    // THEN
    assertThat(result).as(expression).isEqualTo("error: " + error);
  }

  /** Compiles with {@code self} an empty object and evaluates; an evaluation error comes back as its text. */
  static Object eval(String expression) {
    CelTypes.Declared self = CelTypes.of(Schema.parse(new ObjectMapper().createObjectNode().put("type", "object")),
        false);
    RuleEnvironment.Compiled compiled = RuleEnvironment.compile(RuleEnvironment.compiler(self, false), expression);
    assertThat(compiled.errors()).as(expression).isNull();
    try {
      return RuleEnvironment.runtime().createProgram(compiled.ast()).eval(java.util.Map.of("self", java.util.Map.of()));
    } catch (CelEvaluationException e) {
      return "error: " + EvalErrors.text(e);
    }
  }
}
