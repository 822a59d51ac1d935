package dev.ctk.fake.internal.cel;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.cel.bundle.Cel;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelExpr.ExprKind.Kind;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.validator.CelAstValidator;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * The literal checks kube's environment runs when a rule compiles (cel-go's {@code ValidateRegexLiterals},
 * {@code ValidateTimestampLiterals}, {@code ValidateDurationLiterals}): a constant string given to
 * {@code matches}, {@code timestamp} or {@code duration} that does not parse is a compile error
 * {@code invalid <function> argument}. Regexes are RE2 (re2j), durations Go's, timestamps RFC 3339.
 */
final class LiteralChecks implements CelAstValidator {

  static final LiteralChecks INSTANCE = new LiteralChecks();

  private LiteralChecks() {}

  @Override
  public void validate(CelNavigableAst ast, Cel cel, IssuesFactory issues) {
    ast.getRoot().allNodes()
        .filter(node -> node.expr().exprKind().getKind() == Kind.CALL)
        .map(node -> node.expr().call())
        .filter(call -> !call.args().isEmpty())
        .forEach(call -> {
          String function = call.function();
          CelExpr arg = call.args().get(0);
          if (!arg.exprKind().getKind().equals(Kind.CONSTANT)
              || arg.constant().getKind() != CelConstant.Kind.STRING_VALUE) {
            return;
          }
          String text = arg.constant().stringValue();
          boolean invalid = switch (function) {
            case "matches" -> !regex(text);
            case "timestamp" -> !timestamp(text);
            case "duration" -> !duration(text);
            default -> false;
          };
          if (invalid) {
            issues.addError(arg.id(), "invalid " + function + " argument");
          }
        });
  }

  static boolean regex(String pattern) {
    try {
      Pattern.compile(pattern);
      return true;
    } catch (PatternSyntaxException e) {
      return false;
    }
  }

  private static boolean timestamp(String text) {
    try {
      OffsetDateTime.parse(text);
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  private static boolean duration(String text) {
    try {
      GoDuration.parse(text);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
