import sys
from pathlib import Path

# Test modules import shared strategies from each other (test_reference.problems).
sys.path.insert(0, str(Path(__file__).parent))
