package dev.ctk.fake.internal.cel;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * kube's regex library ({@code k8s.io/apiserver/pkg/cel/library.Regex}): {@code s.find(re)} (the leftmost match, or
 * {@code ""}), {@code s.findAll(re)} and {@code s.findAll(re, n)} (Go's {@code FindAllString}: at most {@code n}
 * matches when {@code n >= 0}; an empty match right after a match is skipped). RE2 syntax (re2j), as Go's regexp.
 */
final class RegexFunctions {

  private RegexFunctions() {}

  static List<CelFunctionDecl> declarations() {
    return List.of(
        CelFunctionDecl.newFunctionDeclaration("find", CelOverloadDecl.newMemberOverload("string_find_string",
            SimpleType.STRING, SimpleType.STRING, SimpleType.STRING)),
        CelFunctionDecl.newFunctionDeclaration("findAll",
            CelOverloadDecl.newMemberOverload("string_find_all_string", ListType.create(SimpleType.STRING),
                SimpleType.STRING, SimpleType.STRING),
            CelOverloadDecl.newMemberOverload("string_find_all_string_int", ListType.create(SimpleType.STRING),
                SimpleType.STRING, SimpleType.STRING, SimpleType.INT)));
  }

  static List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from("string_find_string", String.class, String.class, RegexFunctions::find),
        CelFunctionBinding.from("string_find_all_string", String.class, String.class,
            (text, regex) -> findAll(text, regex, -1)),
        CelFunctionBinding.from("string_find_all_string_int", List.of(String.class, String.class, Long.class),
            args -> findAll((String) args[0], (String) args[1], (Long) args[2])));
  }

  static String find(String text, String regex) {
    Matcher m = compile(regex).matcher(text);
    return m.find() ? m.group() : "";
  }

  static List<String> findAll(String text, String regex, long limit) {
    Matcher m = compile(regex).matcher(text);
    List<String> out = new ArrayList<>();
    int previousEnd = -1;
    int from = 0;
    while (limit < 0 || out.size() < limit) {
      if (from > text.length() || !m.find(from)) {
        break;
      }
      int start = m.start();
      int end = m.end();
      if (start == end && start == previousEnd) {
        // Go skips an empty match abutting the previous match
        from = start + Character.charCount(start < text.length() ? text.codePointAt(start) : 1);
        continue;
      }
      out.add(m.group());
      previousEnd = end;
      from = end > start ? end : end + Character.charCount(end < text.length() ? text.codePointAt(end) : 1);
    }
    return Collections.unmodifiableList(out);
  }

  /** Compiles an RE2 pattern; a bad one gives cel-go's {@code Illegal regex: <Go's error>}. */
  static Pattern compile(String regex) {
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new KubeFunctionError("Illegal regex: " + e.getMessage());
    }
  }
}
